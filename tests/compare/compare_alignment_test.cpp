// The comparison model's aligned compile lists (Comparison::compiles) and the anchors of its
// differences (Difference::frame, ::compile), which the viewer's compare mode draws: on the sample
// pairs, every compile of both runs has a row, matched compiles sit side by side, each difference
// about a compile points at the row its subject names, and a compile of A finds its match in B.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "e2e/e2e_support.hpp"
#include "tlscope/views/compare.hpp"

namespace {

const std::string kSample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";

// The pair's two databases, ingested by the built binary into a scratch folder of the test's own
// (`test`: ctest runs the cases in parallel, and two cases may ingest the same scenario).
struct PairDatabases {
  std::string a, b;
};

PairDatabases ingest_pair(const std::string& scenario, const std::string& test) {
  auto dir = e2e::scratch("compare_alignment_" + test + "_" + scenario);
  const e2e::fs::path out = dir / "logs";
  const std::string cmd =
      e2e::q(kSample) + " " + scenario + " --out " + e2e::q(out.string()) + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  PairDatabases dbs{(dir / "a.db").string(), (dir / "b.db").string()};
  for (const auto& [side, db] : {std::pair{"a", dbs.a}, std::pair{"b", dbs.b}}) {
    auto r =
        e2e::run_tlscope(dir, "ingest --db " + e2e::q(db) + " " + e2e::q((out / side).string()));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
  }
  return dbs;
}

tlscope::views::Comparison compare(const PairDatabases& dbs) {
  tlscope::views::Database a(dbs.a), b(dbs.b);
  auto c = tlscope::views::compare_runs(a, b);
  INFO(c.error);
  REQUIRE(c.ok());
  return std::move(c.value);
}

}  // namespace

using tlscope::views::DifferenceKind;
using tlscope::views::FrameStatus;
using tlscope::views::RunSide;

TEST_CASE("compare alignment: every difference about a compile points at its row") {
  auto scenario = GENERATE(as<std::string>{}, "pair-shape-recompile", "pair-dtype-guard",
                           "pair-graph-break", "pair-moved-frame");
  INFO("scenario " << scenario);
  const auto c = compare(ingest_pair(scenario, "anchors"));
  REQUIRE_FALSE(c.differences.empty());
  REQUIRE_FALSE(c.compiles.empty());
  for (const auto& d : c.differences) {
    INFO(tlscope::views::difference_text(d));
    const bool graph_break = d.kind == DifferenceKind::graph_break_added ||
                             d.kind == DifferenceKind::graph_break_removed ||
                             d.kind == DifferenceKind::graph_break_moved;
    if (d.compile >= 0) {
      REQUIRE(static_cast<size_t>(d.compile) < c.compiles.size());
      const auto& p = c.compiles[static_cast<size_t>(d.compile)];
      // The row is the one the difference names (a cache flip adds the cache's name after it);
      // a graph break names its place in the user's code, and is on the compile that broke.
      if (!graph_break) CHECK(d.subject.rfind(p.subject, 0) == 0);
      CHECK(d.frame == p.frame);
      // The anchor is one of its rows.
      CHECK(std::count(d.compile_rows.begin(), d.compile_rows.end(), d.compile) == 1);
    }
    // Its rows are each a rank's row of one compile: the same frame, one row per rank.
    std::set<int64_t> ranks;
    for (int64_t row : d.compile_rows) {
      REQUIRE(row >= 0);
      REQUIRE(static_cast<size_t>(row) < c.compiles.size());
      const auto& p = c.compiles[static_cast<size_t>(row)];
      if (d.kind == DifferenceKind::compile_time) continue;  // the compiles a phase's time is from
      CHECK(p.frame == d.frame);
      CHECK(ranks.insert(p.compile_b ? p.rank_b : p.rank_a).second);
    }
    if (d.kind != DifferenceKind::compile_time) CHECK(d.compile_rows.empty() == (d.compile < 0));
    if (d.frame >= 0) REQUIRE(static_cast<size_t>(d.frame) < c.frames.size());
    if (d.kind == DifferenceKind::frame_moved) {
      CHECK(d.frame >= 0);
      CHECK(d.compile == -1);
    }
    if (d.kind == DifferenceKind::compile_time || d.kind == DifferenceKind::torch_version)
      CHECK(d.frame == -1);
  }
  for (const auto& p : c.compiles) {
    CHECK(p.status == (p.compile_a && p.compile_b ? FrameStatus::matched
                       : p.compile_a              ? FrameStatus::only_a
                                                  : FrameStatus::only_b));
    REQUIRE(p.frame >= 0);
    REQUIRE(static_cast<size_t>(p.frame) < c.frames.size());
  }
}

TEST_CASE("compare alignment: a recompile only B made is B's row alone, found from its id") {
  const auto c = compare(ingest_pair("pair-shape-recompile", "recompile_row"));
  const tlscope::views::Difference* recompile = nullptr;
  for (const auto& d : c.differences)
    if (d.kind == DifferenceKind::recompile_added) recompile = &d;
  REQUIRE(recompile != nullptr);
  REQUIRE(recompile->compile >= 0);
  const auto& row = c.compiles[static_cast<size_t>(recompile->compile)];
  CHECK(row.status == FrameStatus::only_b);
  CHECK_FALSE(row.compile_a);
  REQUIRE(row.compile_b);
  CHECK(tlscope::views::find_compile_pair(c, RunSide::b, row.rank_b, *row.compile_b) == &row);
  CHECK(tlscope::views::find_compile_pair(c, RunSide::a, row.rank_b, *row.compile_b) == nullptr);
  // The compile both runs made first is one row with both ids, found from either side.
  const tlscope::views::CompilePair* first = nullptr;
  for (const auto& p : c.compiles)
    if (p.frame == row.frame && p.index == 0) first = &p;
  REQUIRE(first != nullptr);
  CHECK(first->status == FrameStatus::matched);
  REQUIRE(first->compile_a);
  REQUIRE(first->compile_b);
  CHECK(tlscope::views::find_compile_pair(c, RunSide::a, first->rank_a, *first->compile_a) ==
        first);
  CHECK(tlscope::views::find_compile_pair(c, RunSide::b, first->rank_b, *first->compile_b) ==
        first);
}

TEST_CASE("compare alignment: a graph break B added is on the row of B's compile that broke") {
  const auto c = compare(ingest_pair("pair-graph-break", "break_row"));
  const tlscope::views::Difference* added = nullptr;
  for (const auto& d : c.differences)
    if (d.kind == DifferenceKind::graph_break_added) added = &d;
  REQUIRE(added != nullptr);
  REQUIRE(added->compile_rows.size() == 1);
  const auto& row = c.compiles[static_cast<size_t>(added->compile_rows[0])];
  // pair_forward's first compile, in both runs; B's broke at Tensor.item().
  CHECK(row.status == FrameStatus::matched);
  CHECK(row.index == 0);
  CHECK(c.frames[static_cast<size_t>(row.frame)].function == "pair_forward");
  CHECK(added->frame == row.frame);
  CHECK(added->compile == added->compile_rows[0]);
}

TEST_CASE("compare alignment: identical runs pair every compile and mark nothing") {
  const auto c = compare(ingest_pair("pair-ids-shifted", "identical"));
  CHECK(c.differences.empty());
  REQUIRE_FALSE(c.compiles.empty());
  for (const auto& p : c.compiles) CHECK(p.status == FrameStatus::matched);
}
