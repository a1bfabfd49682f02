// The tensors screen's view models: layouts of a real log against the analysis table they group,
// shape changes and collective shards of hand-built compiles, the drawing inputs worked out by
// hand, and logged snapshots paged in log order.
#include <catch2/catch.hpp>

#include <numeric>
#include <set>

#include "tlscope/views/tensor_screens.hpp"
#include "views/real_db.hpp"

using namespace tlscope;
using namespace tlscope::test;

TEST_CASE("Tensor layouts of a real log group the tensors table, most frequent first") {
  std::string path = analysed_real_log("tensor-layouts", {"simple.log"});
  views::Database db(path);
  auto view = views::load_tensor_layouts(db);
  INFO(view.error);
  REQUIRE(view.ok());
  const auto& rows = view->layouts.rows;
  int64_t tensors = std::stoll(query_rows(path, "SELECT count(*) FROM tensors")[0]);
  REQUIRE(tensors > 0);
  CHECK(view->tensors == tensors);
  CHECK(std::accumulate(rows.begin(), rows.end(), int64_t{0},
                        [](int64_t n, const views::TensorLayout& t) { return n + t.count; }) ==
        tensors);
  CHECK(view->layouts.total == rows.size());
  std::set<std::string> keys;
  for (size_t i = 0; i < rows.size(); ++i) {
    keys.insert(rows[i].dtype + "|" + rows[i].size + "|" + rows[i].stride);
    CHECK(rows[i].compiles >= 1);
    CHECK(rows[i].compiles <= rows[i].count);
    if (i) CHECK(rows[i - 1].count >= rows[i].count);
  }
  CHECK(keys.size() == rows.size());
  if (rows.size() >= 3) {
    auto page = views::load_tensor_layouts(db, views::Page{1, 2});
    REQUIRE(page.ok());
    CHECK(page->layouts.total == rows.size());
    REQUIRE(page->layouts.rows.size() == 2);
    CHECK(page->layouts.rows[0].count == rows[1].count);
    CHECK(page->layouts.rows[1].count == rows[2].count);
  }
}

TEST_CASE("Shape changes and collective shards of hand-built compiles") {
  FixtureDb f;
  for (int64_t rank = 0; rank < 2; ++rank) {
    f.add_file("rank" + std::to_string(rank) + ".log", rank);
    f.dynamo_start(ctx(0, 0), {{"train.py", 1, "<module>"}});
    f.tensor(ctx(0, 0), 0, 0, "L['x']", "[4, 8]", "[8, 1]");
    f.metrics(ctx(0, 0), "forward");
    f.dynamo_start(ctx(0, 1), {{"train.py", 1, "<module>"}});
    f.tensor(ctx(0, 1), 0, 0, "L['x']", "[8, 8]", "[8, 1]");
    f.metrics(ctx(0, 1), "forward");
    for (int seq = 1; seq <= 3; ++seq) {
      f.artifact(Ctx{}, "collective_op",
                 "{\"pg_name\": \"0\", \"pg_desc\": \"dp\", \"pg_ranks\": [0, 1], \"pg_size\": 2, "
                 "\"collective_seq_id\": " +
                     std::to_string(seq) +
                     ", \"op\": \"all_gather\", \"input_sizes\": [[8, 3]], \"output_sizes\": "
                     "[[16, 3]], \"input_dtypes\": [\"float32\"], \"output_dtypes\": "
                     "[\"float32\"], \"state\": \"completed\", \"time_created_us\": 10.0, "
                     "\"time_started_us\": 10.0, \"time_completed_us\": 20.0}",
                 "json", rank);
    }
  }
  std::string path = fixture_file(f, "tensor-changes");
  REQUIRE(model::analysis::ensure_analysis(path).ok);
  views::Database db(path);

  auto changes = views::load_tensor_shape_changes(db);
  INFO(changes.error);
  REQUIRE(changes.ok());
  REQUIRE(changes->total == 2);  // one per rank
  REQUIRE(changes->rows.size() == 2);
  const views::TensorShapeChange& c = changes->rows[0];
  CHECK(c.compile_id == "0/1");
  CHECK(c.prev_compile_id == "0/0");
  CHECK(c.prev_size == "[4, 8]");
  CHECK(c.size == "[8, 8]");
  CHECK(c.prev_stride == c.stride);
  auto second = views::load_tensor_shape_changes(db, views::Page{1, 5});
  REQUIRE(second->rows.size() == 1);
  CHECK(second->rows[0].rank == changes->rows[1].rank);

  auto shards = views::load_collective_shards(db, 20);
  INFO(shards.error);
  REQUIRE(shards.ok());
  REQUIRE(shards->size() == 1);
  const views::CollectiveShard& s = shards->front();
  CHECK(s.op == "all_gather");
  CHECK(views::json_dims(s.full_size) == std::vector<std::string>{"16", "3"});
  CHECK(s.ranks == 2);
  CHECK(s.records == 6);  // three per rank
  views::TensorGridInput in = views::shard_grid_input(s);
  CHECK(in.shape == std::vector<int64_t>{16, 3});
  REQUIRE(in.mesh);
  CHECK(in.mesh->shape == std::vector<int64_t>{2});
  CHECK(in.mesh->placements[0].kind == views::MeshPlacement::Kind::kShard);
  CHECK(views::load_collective_shards(db, 0)->empty());
}

TEST_CASE("Layout drawing inputs: symbolic dims, dims text and storage offsets") {
  CHECK(views::json_dims("[2, \"s0\", 4]") == std::vector<std::string>{"2", "s0", "4"});
  CHECK(views::json_dims("[]").empty());
  CHECK(views::dims_text("[2,\"s0\"]") == "[2, s0]");
  views::TensorGridInput sym = views::layout_grid_input("[2, \"s0\"]");
  CHECK(sym.shape == std::vector<int64_t>{2, 3});  // a symbol is drawn with 3 items
  CHECK(sym.names == std::vector<std::string>{"", "s0"});
  CHECK(views::layout_grid_input("[2, 3]").names.empty());

  // A transposed 2x3 view (strides 1, 2) at storage offset 5: element (i, j) is at 5 + i + 2j.
  views::TensorGridInput in;
  in.shape = {2, 3};
  auto r = views::layout_tensor_grid(in);
  REQUIRE(r.grid);
  std::vector<std::string> offsets = views::storage_offsets(*r.grid, {"1", "2"}, 5);
  REQUIRE(offsets.size() == r.grid->cells.size());
  for (size_t k = 0; k < offsets.size(); ++k) {
    const auto& idx = r.grid->cells[k].index;
    CHECK(offsets[k] == std::to_string(5 + idx[0] + 2 * idx[1]));
  }
  // A symbolic stride gives no offsets rather than wrong ones.
  for (const std::string& o : views::storage_offsets(*r.grid, {"s1", "1"}, 0)) CHECK(o.empty());
}

TEST_CASE("Logged snapshots page in log order, unreadable records name file and line") {
  FixtureDb f;
  f.add_file("/logs/rank0.log", 0);
  auto values = [&](const std::string& name, double v) {
    f.artifact(Ctx{}, "tensor_values",
               "{\"name\": \"" + name +
                   "\", \"shape\": [2], \"dtype\": \"float32\", "
                   "\"values\": [" +
                   std::to_string(v) + ", 1]}",
               "json", 0);
  };
  values("a", 1);
  values("b", 2);
  f.artifact(Ctx{}, "tensor_values", "{\"name\": \"broken\"", "json", 0);
  values("a", 3);
  std::string path = fixture_file(f, "tensor-snapshots");
  views::Database db(path);

  auto all = views::load_tensor_snapshots(db);
  INFO(all.error);
  REQUIRE(all.ok());
  CHECK(all->total == 3);
  REQUIRE(all->entries.size() == 3);
  CHECK(all->entries[0].snapshot.name == "a");
  CHECK(all->entries[1].snapshot.name == "b");
  CHECK(all->entries[2].snapshot.name == "a");
  CHECK(all->entries[2].snapshot.occurrence == 2);
  CHECK(all->entries[2].snapshot.values == std::vector<double>{3, 1});
  REQUIRE(all->errors.size() == 1);
  CHECK(all->errors[0].find("rank0.log:3") != std::string::npos);

  auto page = views::load_tensor_snapshots(db, views::Page{1, 1});
  REQUIRE(page.ok());
  CHECK(page->total == 3);
  CHECK(page->first == 1);
  REQUIRE(page->entries.size() == 1);
  CHECK(page->entries[0].snapshot.name == "b");
  // Inputs named like a snapshot find it on their log file, as indices into the page.
  CHECK(page->for_compile(1, "0/0", {"b"}) == std::vector<size_t>{0});
  CHECK(page->for_compile(1, "0/0", {"a"}).empty());
  CHECK(views::input_base_name("L['self'].layer.w") == "w");
  CHECK(views::input_base_name("L['x']") == "x");
}
