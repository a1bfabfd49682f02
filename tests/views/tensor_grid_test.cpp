// TensorGrid layout: every expected coordinate below is derived by hand from the layout rules
// (docs: architecture.md "Matrix-of-matrices tensor views"), never produced by the code:
//   dim k of a rank-n tensor has p = n-1-k; even p horizontal, odd p vertical, level floor(p/2);
//   a cell is 1x1; items of a level-L dim are spaced by gap(L) = L; an ellipsis slot is 1 unit.
#include <catch2/catch.hpp>

#include "tlscope/views/tensor_grid.hpp"

using namespace tlscope::views;

namespace {

TensorGrid layout(std::vector<int64_t> shape, std::vector<double> values = {}) {
  TensorGridInput in;
  in.shape = std::move(shape);
  in.values = std::move(values);
  auto r = layout_tensor_grid(in);
  INFO(r.error);
  REQUIRE(r.grid);
  return *r.grid;
}

std::vector<double> arange(int64_t n) {
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(static_cast<double>(i));
  return v;
}

const GridCell& cell_at(const TensorGrid& g, std::vector<int64_t> index) {
  for (const auto& c : g.cells) {
    if (c.index == index) return c;
  }
  FAIL("no cell with that index");
  return g.cells.front();
}

void check_xy(const GridCell& c, double x, double y) {
  CHECK(c.x == x);
  CHECK(c.y == y);
  CHECK(c.w == 1);
  CHECK(c.h == 1);
}

void check_sep(const GridSeparator& s, int dim, int level, LineOrientation o, double pos,
               double from, double to) {
  CHECK(s.dim == dim);
  CHECK(s.level == level);
  CHECK(s.orientation == o);
  CHECK(s.pos == pos);
  CHECK(s.from == from);
  CHECK(s.to == to);
}

void check_rect(double x, double y, double w, double h, double ex, double ey, double ew,
                double eh) {
  CHECK(x == ex);
  CHECK(y == ey);
  CHECK(w == ew);
  CHECK(h == eh);
}

constexpr auto kV = LineOrientation::kVertical;
constexpr auto kH = LineOrientation::kHorizontal;

}  // namespace

TEST_CASE("TensorGrid 0-D tensor is one cell and nothing else") {
  TensorGrid g = layout({}, {42});
  REQUIRE(g.cells.size() == 1);
  check_xy(g.cells[0], 0, 0);
  CHECK(g.cells[0].index.empty());
  CHECK(g.cells[0].text == "42");
  CHECK(g.width == 1);
  CHECK(g.height == 1);
  CHECK(g.separators.empty());
  CHECK(g.blocks.empty());
  CHECK(g.ticks.empty());
  CHECK(g.axes.empty());
}

TEST_CASE("TensorGrid (7,) is one row of seven cells") {
  // dim 0: p = 0 -> horizontal, level 0: x = i, y = 0.
  TensorGrid g = layout({7}, arange(7));
  REQUIRE(g.cells.size() == 7);
  for (int i = 0; i < 7; ++i) {
    check_xy(g.cells[i], i, 0);
    CHECK(g.cells[i].text == std::to_string(i));
  }
  CHECK(g.width == 7);
  CHECK(g.height == 1);
  CHECK(g.separators.empty());
  REQUIRE(g.blocks.size() == 1);
  check_rect(g.blocks[0].x, g.blocks[0].y, g.blocks[0].w, g.blocks[0].h, 0, 0, 7, 1);
  REQUIRE(g.ticks.size() == 7);
  // Horizontal level-0 ticks sit in the header row y = -1 above their column.
  check_rect(g.ticks[6].x, g.ticks[6].y, g.ticks[6].w, g.ticks[6].h, 6, -1, 1, 1);
  CHECK(g.ticks[6].text == "6");
  REQUIRE(g.axes.size() == 1);
  CHECK(g.axes[0].direction == Direction::kHorizontal);
  CHECK(g.axes[0].text == "dim 0 [7]");
  CHECK(g.horizontal_levels == 1);
  CHECK(g.vertical_levels == 0);
}

TEST_CASE("TensorGrid (3,4) is a plain matrix") {
  // dim 1: p = 0 -> columns (x = j); dim 0: p = 1 -> rows (y = i).
  TensorGrid g = layout({3, 4}, arange(12));
  REQUIRE(g.cells.size() == 12);
  check_xy(cell_at(g, {0, 0}), 0, 0);
  check_xy(cell_at(g, {0, 3}), 3, 0);
  check_xy(cell_at(g, {2, 0}), 0, 2);
  check_xy(cell_at(g, {2, 3}), 3, 2);
  CHECK(cell_at(g, {1, 2}).text == "6");  // 1*4 + 2
  CHECK(g.width == 4);
  CHECK(g.height == 3);
  CHECK(g.separators.empty());   // level-0 cells touch: no gaps, no lines
  REQUIRE(g.ticks.size() == 7);  // 4 column ticks + 3 row ticks
  // Row ticks in the header column x = -1.
  const GridTick& row2 = g.ticks[6];
  CHECK(row2.direction == Direction::kVertical);
  check_rect(row2.x, row2.y, row2.w, row2.h, -1, 2, 1, 1);
  CHECK(g.axes[0].direction == Direction::kVertical);
  CHECK(g.axes[1].direction == Direction::kHorizontal);
}

TEST_CASE("TensorGrid (2,3,4) puts two 3x4 blocks side by side") {
  // dim 2: p=0 h L0; dim 1: p=1 v L0; dim 0: p=2 h L1 (odd rank: one row of blocks).
  // A level-0 block is 4 wide; dim 0's items are spaced by gap(1) = 1: offsets 0 and 4+1 = 5.
  // So x = 5a + j, y = i; width = 5 + 4 = 9, height = 3.
  TensorGrid g = layout({2, 3, 4}, arange(24));
  REQUIRE(g.cells.size() == 24);
  check_xy(cell_at(g, {0, 0, 0}), 0, 0);
  check_xy(cell_at(g, {0, 2, 3}), 3, 2);
  check_xy(cell_at(g, {1, 0, 0}), 5, 0);
  check_xy(cell_at(g, {1, 2, 3}), 8, 2);
  CHECK(cell_at(g, {1, 2, 3}).text == "23");
  CHECK(g.width == 9);
  CHECK(g.height == 3);
  // One level-1 separator in the middle of the gap [4, 5], spanning the block height 0..3.
  REQUIRE(g.separators.size() == 1);
  check_sep(g.separators[0], 0, 1, kV, 4.5, 0, 3);
  // Blocks: two level-0 tiles of 12 cells each, then the whole level-1 block.
  REQUIRE(g.blocks.size() == 3);
  check_rect(g.blocks[0].x, g.blocks[0].y, g.blocks[0].w, g.blocks[0].h, 0, 0, 4, 3);
  check_rect(g.blocks[1].x, g.blocks[1].y, g.blocks[1].w, g.blocks[1].h, 5, 0, 4, 3);
  check_rect(g.blocks[2].x, g.blocks[2].y, g.blocks[2].w, g.blocks[2].h, 0, 0, 9, 3);
  CHECK(g.blocks[1].first_cell == 12);
  CHECK(g.blocks[1].end_cell == 24);
  // Ticks: dim 2 repeated over both blocks (x 0..3 and 5..8), dim 0 in the second header row.
  REQUIRE(g.ticks.size() == 8 + 2 + 3);
  CHECK(g.ticks[4].x == 5);  // dim 2, index 0, second block
  CHECK(g.ticks[4].text == "0");
  const GridTick& outer = g.ticks[9];  // dim 0, index 1
  CHECK(outer.dim == 0);
  check_rect(outer.x, outer.y, outer.w, outer.h, 5, -2, 4, 1);
  CHECK(outer.text == "d0=1");
  CHECK(g.horizontal_levels == 2);
  CHECK(g.vertical_levels == 1);
}

TEST_CASE("TensorGrid (2,3,4,5) tiles 4x5 blocks two down and three across") {
  // dim 3: h L0 (5 wide); dim 2: v L0 (4 tall); dim 1: h L1; dim 0: v L1.
  // dim 1 offsets: 0, 5+1 = 6, 6+5+1 = 12 -> width 12 + 5 = 17.
  // dim 0 offsets: 0, 4+1 = 5 -> height 5 + 4 = 9.   x = 6b + d, y = 5a + c.
  TensorGrid g = layout({2, 3, 4, 5}, arange(120));
  REQUIRE(g.cells.size() == 120);
  check_xy(cell_at(g, {0, 0, 0, 0}), 0, 0);
  check_xy(cell_at(g, {0, 1, 0, 0}), 6, 0);
  check_xy(cell_at(g, {1, 0, 0, 0}), 0, 5);
  check_xy(cell_at(g, {1, 2, 3, 4}), 16, 8);
  check_xy(cell_at(g, {0, 2, 1, 3}), 15, 1);
  CHECK(cell_at(g, {1, 2, 3, 4}).text == "119");
  CHECK(cell_at(g, {0, 2, 1, 3}).text == "48");  // 2*20 + 1*5 + 3
  CHECK(g.width == 17);
  CHECK(g.height == 9);
  // dim 1: vertical lines at 6-0.5 and 12-0.5 over the full height; dim 0: one horizontal line
  // at 5-0.5 over the full width.
  REQUIRE(g.separators.size() == 3);
  check_sep(g.separators[0], 1, 1, kV, 5.5, 0, 9);
  check_sep(g.separators[1], 1, 1, kV, 11.5, 0, 9);
  check_sep(g.separators[2], 0, 1, kH, 4.5, 0, 17);
  // Six 4x5 tiles in row-major (a, b) order, then the level-1 block.
  REQUIRE(g.blocks.size() == 7);
  check_rect(g.blocks[2].x, g.blocks[2].y, g.blocks[2].w, g.blocks[2].h, 12, 0, 5, 4);
  check_rect(g.blocks[4].x, g.blocks[4].y, g.blocks[4].w, g.blocks[4].h, 6, 5, 5, 4);
  check_rect(g.blocks[6].x, g.blocks[6].y, g.blocks[6].w, g.blocks[6].h, 0, 0, 17, 9);
}

TEST_CASE("TensorGrid (2,2,2,2,2) nests three levels with wider outer gaps") {
  // dim 4 h L0, dim 3 v L0, dim 2 h L1, dim 1 v L1, dim 0 h L2.
  // h: L0 block 2 wide; dim 2 offsets 0, 2+1 = 3 -> L1 block 5 wide; dim 0 offsets 0, 5+2 = 7
  //    -> width 7 + 5 = 12.  v: L0 block 2 tall; dim 1 offsets 0, 3 -> height 5.
  // x = 7a + 3c + e, y = 3b + d.
  TensorGrid g = layout({2, 2, 2, 2, 2});
  REQUIRE(g.cells.size() == 32);
  check_xy(cell_at(g, {0, 0, 0, 0, 0}), 0, 0);
  check_xy(cell_at(g, {0, 0, 1, 0, 0}), 3, 0);
  check_xy(cell_at(g, {1, 0, 1, 0, 1}), 11, 0);
  check_xy(cell_at(g, {1, 1, 1, 1, 1}), 11, 4);
  check_xy(cell_at(g, {0, 1, 0, 1, 0}), 0, 4);
  CHECK(g.width == 12);
  CHECK(g.height == 5);
  // Level-1 blocks at x = 0 and 7 (5x5 each) get a vertical line for dim 2 at x0 + 3 - 0.5 and a
  // horizontal one for dim 1 at y = 3 - 0.5; the level-2 block a vertical line for dim 0 in the
  // middle of its 2-unit gap [5, 7]: x = 6.
  REQUIRE(g.separators.size() == 5);
  check_sep(g.separators[0], 2, 1, kV, 2.5, 0, 5);
  check_sep(g.separators[1], 1, 1, kH, 2.5, 0, 5);
  check_sep(g.separators[2], 2, 1, kV, 9.5, 0, 5);
  check_sep(g.separators[3], 1, 1, kH, 2.5, 7, 12);
  check_sep(g.separators[4], 0, 2, kV, 6, 0, 5);
  // 8 level-0 tiles, 2 level-1 blocks, 1 level-2 block.
  REQUIRE(g.blocks.size() == 11);
  CHECK(g.blocks[9].level == 1);
  check_rect(g.blocks[9].x, g.blocks[9].y, g.blocks[9].w, g.blocks[9].h, 7, 0, 5, 5);
  CHECK(g.horizontal_levels == 3);
  CHECK(g.vertical_levels == 2);
}

TEST_CASE("TensorGrid (2,2,2,2,2,2) 6-D stays inside its own extents") {
  // 6-D: dims 5,3,1 horizontal (levels 0,1,2), dims 4,2,0 vertical. Per direction: 2, then
  // 2+1+2 = 5, then 5+2+5 = 12, so a 12x12 grid and cell x = 7b + 3d + f, y = 7a + 3c + e.
  TensorGrid g = layout({2, 2, 2, 2, 2, 2});
  REQUIRE(g.cells.size() == 64);
  CHECK(g.width == 12);
  CHECK(g.height == 12);
  check_xy(cell_at(g, {1, 1, 1, 1, 1, 1}), 11, 11);
  check_xy(cell_at(g, {1, 0, 0, 1, 1, 0}), 3, 8);
  // Separators: 4 level-1 blocks x 2 lines + 1 level-2 block x 2 lines.
  CHECK(g.separators.size() == 10);
  check_sep(g.separators.back(), 0, 2, kH, 6, 0, 12);
}

TEST_CASE("TensorGrid (1,1,1) is a single cell with a tick per dim") {
  TensorGrid g = layout({1, 1, 1});
  REQUIRE(g.cells.size() == 1);
  check_xy(g.cells[0], 0, 0);
  CHECK(g.width == 1);
  CHECK(g.height == 1);
  CHECK(g.separators.empty());
  REQUIRE(g.ticks.size() == 3);
  CHECK(g.ticks[0].dim == 2);
  CHECK(g.ticks[1].dim == 0);
  CHECK(g.ticks[1].y == -2);
  CHECK(g.ticks[2].dim == 1);
  CHECK(g.ticks[2].x == -1);
}

TEST_CASE("TensorGrid summarises a large matrix with ellipsis cells") {
  // 100*200 = 20000 > 1000: both dims keep 3 edge items: slots 0 1 2 … 97|197 98|198 99|199.
  TensorGrid g = layout({100, 200}, arange(20000));
  CHECK(g.summarized);
  CHECK(g.edge_items == 3);
  CHECK(g.width == 7);
  CHECK(g.height == 7);
  REQUIRE(g.cells.size() == 49);
  check_xy(cell_at(g, {0, 197}), 4, 0);
  check_xy(cell_at(g, {99, 199}), 6, 6);
  CHECK(cell_at(g, {99, 199}).text == "19999");
  CHECK(cell_at(g, {98, 1}).text == "19601");  // 98*200 + 1
  CHECK(cell_at(g, {0, kEllipsisIndex}).text == "\u2026");
  check_xy(cell_at(g, {0, kEllipsisIndex}), 3, 0);
  check_xy(cell_at(g, {kEllipsisIndex, 0}), 0, 3);
  CHECK(cell_at(g, {kEllipsisIndex, kEllipsisIndex}).text == "\u22f1");
  CHECK(cell_at(g, {kEllipsisIndex, kEllipsisIndex}).ellipsis);
  CHECK(g.axes[0].summarized);
}

TEST_CASE("TensorGrid summarises an outer dim with an ellipsis gap") {
  // (20,3,30): 1800 > 1000. dim 2 (h L0): 7 slots -> blocks 7 wide; dim 1 (v L0): 3 rows kept;
  // dim 0 (h L1): slots 0 1 2 … 17 18 19 with extents 7 7 7 1 7 7 7 and gap 1:
  // offsets 0, 8, 16, 24, 26, 34, 42 -> width 49.
  TensorGrid g = layout({20, 3, 30}, arange(1800));
  CHECK(g.width == 49);
  CHECK(g.height == 3);
  CHECK(g.cells.size() == 6 * 3 * 7);
  check_xy(cell_at(g, {17, 0, 0}), 26, 0);
  check_xy(cell_at(g, {19, 2, 29}), 48, 2);
  CHECK(cell_at(g, {19, 2, 29}).text == "1799");  // 19*90 + 2*30 + 29
  REQUIRE(g.ellipses.size() == 1);
  const GridEllipsis& e = g.ellipses[0];
  CHECK(e.dim == 0);
  check_rect(e.x, e.y, e.w, e.h, 24, 0, 1, 3);
  // A line in each of the six gaps: offsets[j] - 0.5.
  REQUIRE(g.separators.size() == 6);
  const double expected[] = {7.5, 15.5, 23.5, 25.5, 33.5, 41.5};
  for (int i = 0; i < 6; ++i) check_sep(g.separators[i], 0, 1, kV, expected[i], 0, 3);
}

TEST_CASE("TensorGrid shrinks the edge when the summary is still too large") {
  // 6-D of 10s: 7^6 = 117649 slots at edge 3 > 20000; edge 2 gives 5^6 = 15625 <= 20000.
  // Drawn cells: the 4 outer dims keep 4 indices each (their ellipsis slot is a gap, not cells),
  // the 2 level-0 dims have 5 slots each (ellipsis cells included): 4^4 * 5^2 = 6400.
  TensorGrid g = layout({10, 10, 10, 10, 10, 10});
  CHECK(g.edge_items == 2);
  CHECK(g.cells.size() == 6400);
  // Outer ellipses: dims 0..3 each leave one gap per block of their level.
  CHECK_FALSE(g.ellipses.empty());
}

TEST_CASE("TensorGrid tags a 2x2-mesh Shard(0),Shard(1) tensor by owner rank") {
  // Mesh ranks row-major: rank = 2*c0 + c1. Mesh dim 0 splits rows into [0,2) [2,4), mesh dim 1
  // splits columns the same way, so cell (i, j) belongs to rank 2*(i/2) + j/2.
  TensorGridInput in;
  in.shape = {4, 4};
  in.mesh =
      DeviceMesh{{2, 2}, {{MeshPlacement::Kind::kShard, 0}, {MeshPlacement::Kind::kShard, 1}}};
  auto r = layout_tensor_grid(in);
  REQUIRE(r.grid);
  const TensorGrid& g = *r.grid;
  CHECK(g.mesh_ranks == 4);
  CHECK(cell_at(g, {0, 0}).owners == std::vector<int>{0});
  CHECK(cell_at(g, {1, 3}).owners == std::vector<int>{1});
  CHECK(cell_at(g, {3, 0}).owners == std::vector<int>{2});
  CHECK(cell_at(g, {2, 2}).owners == std::vector<int>{3});
  check_xy(cell_at(g, {2, 2}), 2, 2);
  REQUIRE(g.blocks.size() == 1);
  CHECK(g.blocks[0].owners.empty());  // four owners inside: not uniform
}

TEST_CASE("TensorGrid tags replicated blocks with every holding rank") {
  // (2,2,4) on 2x2, Shard(0),Replicate(): a = 0 lives on mesh row 0 = ranks {0,1}, a = 1 on {2,3};
  // the two level-0 tiles sit at x = 0 and 4+1 = 5.
  TensorGridInput in;
  in.shape = {2, 2, 4};
  in.mesh = DeviceMesh{{2, 2}, {{MeshPlacement::Kind::kShard, 0}, {}}};
  auto r = layout_tensor_grid(in);
  REQUIRE(r.grid);
  const TensorGrid& g = *r.grid;
  REQUIRE(g.blocks.size() == 3);
  CHECK(g.blocks[0].owners == std::vector<int>{0, 1});
  CHECK(g.blocks[1].owners == std::vector<int>{2, 3});
  CHECK(g.blocks[1].x == 5);
  CHECK(g.blocks[2].owners.empty());
  CHECK(cell_at(g, {1, 1, 3}).owners == std::vector<int>{2, 3});
}

TEST_CASE("MeshOwnership splits one dim twice and chunks uneven sizes like torch.chunk") {
  // Shard(0),Shard(0) on a 2x2 mesh: [0,4) -> [0,2),[2,4) by c0, then each half by c1, so
  // element i is on rank 2*c0 + c1 = i.
  auto own = MeshOwnership::build(
      {{2, 2}, {{MeshPlacement::Kind::kShard, 0}, {MeshPlacement::Kind::kShard, 0}}}, {4});
  REQUIRE(own.ok());
  for (int i = 0; i < 4; ++i) CHECK(own->owners({i}) == std::vector<int>{i});
  // Size 5 over 2 ranks: chunk ceil(5/2) = 3 -> rank 0 holds [0,3), rank 1 holds [3,5).
  auto uneven = MeshOwnership::build({{2}, {{MeshPlacement::Kind::kShard, 0}}}, {5});
  REQUIRE(uneven.ok());
  CHECK(uneven->owners({2}) == std::vector<int>{0});
  CHECK(uneven->owners({3}) == std::vector<int>{1});
  auto partial = MeshOwnership::build({{2}, {{MeshPlacement::Kind::kPartial, -1}}}, {3});
  REQUIRE(partial.ok());
  CHECK(partial->partial());
  CHECK(partial->owners({1}) == std::vector<int>{0, 1});
  // A mesh that does not fit the tensor is an error naming the dim, and owns no ranks.
  auto misfit = MeshOwnership::build({{2}, {{MeshPlacement::Kind::kShard, 1}}}, {3});
  CHECK_FALSE(misfit.ok());
  CHECK(misfit.error == "Shard(1) names a dim the rank-1 tensor does not have");
  CHECK(misfit->rank_count() == 0);
}

TEST_CASE("Placement and mesh text parse, and bad text says why") {
  std::string err;
  auto p = parse_placements("Shard(0), Replicate(),Partial(sum)");
  REQUIRE(p.ok());
  REQUIRE(p->size() == 3);
  CHECK((*p)[0].kind == MeshPlacement::Kind::kShard);
  CHECK((*p)[0].dim == 0);
  CHECK((*p)[1].kind == MeshPlacement::Kind::kReplicate);
  CHECK((*p)[2].kind == MeshPlacement::Kind::kPartial);
  auto bad = parse_placements("Shard(x)");
  CHECK_FALSE(bad.ok());
  CHECK(bad.error.find("Shard(x)") != std::string::npos);
  CHECK(bad->empty());
  CHECK_FALSE(parse_placements("Replicate(").ok());
  auto m = parse_mesh_shape("2x4");
  REQUIRE(m.ok());
  CHECK(*m == std::vector<int64_t>{2, 4});
  CHECK_FALSE(parse_mesh_shape("2x").ok());
  auto zero = parse_mesh_shape("0x2");
  CHECK_FALSE(zero.ok());
  CHECK(zero.error == "bad mesh shape '0x2': want sizes like 2x2");
  CHECK(zero->empty());
}

TEST_CASE("TensorGrid rejects inconsistent input with a reason") {
  TensorGridInput in;
  in.shape = {2, -1};
  CHECK(layout_tensor_grid(in).error.find("negative") != std::string::npos);
  in.shape = {2, 3};
  in.names = {"a"};
  CHECK(layout_tensor_grid(in).error.find("names") != std::string::npos);
  in.names = {};
  in.values = {1, 2, 3};
  CHECK(layout_tensor_grid(in).error.find("3 values") != std::string::npos);
  in.values = {};
  in.mesh = DeviceMesh{{2}, {{MeshPlacement::Kind::kShard, 2}}};
  CHECK(layout_tensor_grid(in).error.find("Shard(2)") != std::string::npos);
  in.mesh = DeviceMesh{{2, 2}, {{MeshPlacement::Kind::kShard, 0}}};
  CHECK(layout_tensor_grid(in).error.find("placements") != std::string::npos);
}

TEST_CASE("TensorGrid refuses a rank past kMaxGridDims, which no screen could show") {
  // A logged size of 10,000 ones: one element, but 5,000 nesting levels, whose header rows and
  // columns made `tlscope tensor` print 197 MB.
  TensorGridInput in;
  in.shape.assign(10000, 1);
  TensorGridResult r = layout_tensor_grid(in);
  CHECK_FALSE(r.grid);
  CHECK(r.error.find("rank-10000") != std::string::npos);
  in.shape.assign(kMaxGridDims, 1);
  CHECK(layout_tensor_grid(in).grid);
}

TEST_CASE("TensorGrid with a zero-size dim draws no cells but keeps its axes") {
  TensorGrid g = layout({3, 0});
  CHECK(g.cells.empty());
  CHECK(g.width == 0);
  CHECK(g.height == 3);
  REQUIRE(g.axes.size() == 2);
  CHECK(g.axes[1].size == 0);
}

TEST_CASE("format_cell_value prints integers exactly and reals with 4 digits") {
  CHECK(format_cell_value(-3) == "-3");
  CHECK(format_cell_value(0.5) == "0.5");
  CHECK(format_cell_value(1234567.5) == "1.235e+06");
  CHECK(format_cell_value(1.0 / 3) == "0.3333");
}

TEST_CASE("TensorGrid summarises a long dim even when another dim is empty") {
  // (0, 10^12): no cells, but dim 1 is summarised to 3 + 1 + 3 = 7 ticks instead of 10^12.
  TensorGrid g = layout({0, 1000000000000});
  CHECK(g.cells.empty());
  CHECK(g.ticks.size() == 7);
  CHECK(g.width == 7);
  CHECK(g.height == 0);
}

TEST_CASE("TensorGrid shows flat indices of a summarised huge tensor without its values") {
  // (10^6, 10^6): the last cell's flat index is 10^12 - 1, at x = y = 6.
  TensorGridInput in;
  in.shape = {1000000, 1000000};
  in.flat_index_values = true;
  auto r = layout_tensor_grid(in);
  REQUIRE(r.grid);
  const GridCell& last = r.grid->cells.back();
  CHECK(last.text == "999999999999");
  CHECK(last.x == 6);
  CHECK(last.y == 6);
}
