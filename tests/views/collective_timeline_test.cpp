// The collective timeline view model on a hand-built four-rank database: rank 2 issues an
// all_gather where the others all_reduce (a desync) and rank 3 never issues collective 2 (a hang).
#include <catch2/catch.hpp>
#include <filesystem>

#include "tlscope/views/collective_timeline.hpp"
#include "tlscope/views/lane_folding.hpp"
#include "views/schema_fixture.hpp"

using namespace tlscope::views;

namespace {

constexpr double kT0 = 1752877801875010.0;

std::string four_rank_db() {
  std::string path = std::string(TLSCOPE_BINARY_DIR) + "/tests/views_collectives.db";
  std::filesystem::remove(path);
  sqlite3* raw = nullptr;
  sqlite3_open(path.c_str(), &raw);
  std::string sql =
      "CREATE TABLE collectives(id INTEGER PRIMARY KEY, event_id, file_id, rank, pg_name, "
      "pg_desc, seq, op, input_sizes, dtype, bytes, state, created_us, started_us, "
      "completed_us);"
      "CREATE TABLE collective_matches(id INTEGER PRIMARY KEY, pg_name, seq);" +
      tlscope::test::analysis_table_sql("findings");
  int id = 1;
  for (int seq = 0; seq < 3; ++seq) {
    sql += "INSERT INTO collective_matches(pg_name, seq) VALUES('0', " + std::to_string(seq) + ");";
    for (int rank = 0; rank < 4; ++rank) {
      if (seq == 2 && rank == 3) continue;
      const char* op = seq == 1 && rank == 2 ? "all_gather" : "all_reduce";
      const double start = kT0 + seq * 1000 + rank * 10;
      char row[400];
      std::snprintf(row, sizeof row,
                    "INSERT INTO collectives VALUES(%d, %d, %d, %d, '0', 'default_pg', %d, '%s', "
                    "'[[4, 4]]', 'float32', 64, '%s', %.1f, %.1f, %.1f);",
                    id, id, rank + 1, rank, seq, op, seq == 2 ? "timed_out" : "completed", start,
                    start + 1, start + 100);
      sql += row;
      ++id;
    }
  }
  sql +=
      "INSERT INTO findings(id, kind, severity, ranks, other_ranks, pg_name, seq, detail) "
      "VALUES(1, 'desync', 'error', '[2]', '[0,1,3]', '0', 1, '{\"groups\": [{\"ranks\": "
      "[0,1,3], \"op\": \"all_reduce\"}, {\"ranks\": [2], \"op\": \"all_gather\"}], "
      "\"reference\": 0, \"differs\": \"op\"}'),"
      "(2, 'missing_collective', 'error', '[3]', '[0,1,2]', '0', 2, '{\"op\": "
      "\"all_reduce\"}'),"
      "(3, 'graph_break', 'warning', '[0]', '[]', NULL, NULL, '{\"reason\": \"x\"}');";
  tlscope::test::exec_sql(raw, sql);
  sqlite3_close(raw);
  return path;
}

}  // namespace

TEST_CASE("collective timeline: lanes per rank, bars, links, problem markers and folding") {
  Database db(four_rank_db());
  REQUIRE(db.ok());
  auto runs_read = load_trace_runs(db);
  CHECK(runs_read.ok());
  TraceRuns runs = runs_read.value;
  REQUIRE(runs.runs.size() == 1);
  auto t_read = load_collective_timeline(db, runs);
  CHECK(t_read.ok());
  CollectiveTimeline t = t_read.value;
  CHECK(t.records == 11);
  CHECK(t.matched == 3);
  CHECK(t.desyncs == 1);
  CHECK(t.missing == 1);
  CHECK(t.stragglers == 0);
  CHECK(t.timed_out == 3);
  REQUIRE(t.findings.size() == 2);  // graph breaks are not collective findings
  REQUIRE(t.lanes.size() == 4);
  CHECK(t.lanes[2].rank == 2);
  REQUIRE(t.bars.size() == 11);
  // Times from the run's start; the first bar begins it.
  CHECK(t.bars[0].start_us == 0);
  CHECK(t.bars[0].end_us == 100);
  CHECK(bar_label(t.bars[0]) == "all_reduce #0");
  CHECK(bar_detail(t.bars[0]) == "pg 0 (default_pg)  [[4, 4]] float32  64 B  completed");
  // Each collective links its ranks' bars in rank order: 3 + 3 + 2 links.
  CHECK(t.links.size() == 8);
  int desync_bar = -1;
  for (size_t i = 0; i < t.bars.size(); ++i)
    if (t.bars[i].seq == 1 && t.bars[i].rank == 2) desync_bar = static_cast<int>(i);
  REQUIRE(desync_bar >= 0);
  CHECK(t.bars[static_cast<size_t>(desync_bar)].problem == ProblemKind::desync);
  CHECK(t.bars[static_cast<size_t>(desync_bar)].kind == CollectiveKind::all_gather);
  CHECK(find_collective_bar(t, "0", 1) == 4);
  CHECK(find_collective_bar(t, "0", 9) == -1);
  // The markers sit on the lanes of the ranks involved, where the collective began elsewhere.
  REQUIRE(t.markers.size() == 2);
  CHECK(t.markers[0].kind == ProblemKind::desync);
  CHECK(t.markers[0].rank == 2);
  CHECK(t.markers[0].at_us == 1000);
  CHECK(t.markers[0].text ==
        "rank 2 issued all_gather where ranks 0-1, 3 (3 ranks) issued "
        "all_reduce at sequence 1 of group 0");
  CHECK(t.markers[1].kind == ProblemKind::hang);
  CHECK(t.markers[1].rank == 3);
  CHECK(t.markers[1].at_us == 2000);
  CHECK(collective_lane(t, 0, 3) == 3);
  // Ranks 0 and 1 issued the same collectives and have no problem: one group of two. Ranks 2
  // and 3 are outliers on lanes of their own.
  const LaneFolding folding = fold_collective_lanes(t);
  REQUIRE(folding.groups.size() == 3);
  CHECK(folding.groups[0].lanes == std::vector<int>{0, 1});
  CHECK(folding.groups[0].label == "ranks 0-1 (2)");
  CHECK_FALSE(folding.groups[0].outlier);
  CHECK(folding.groups[1].lanes == std::vector<int>{2});
  CHECK(folding.groups[1].outlier);
  CHECK(folding.groups[1].problem == ProblemKind::desync);
  CHECK(folding.groups[2].problem == ProblemKind::hang);
  // As intervals on one axis with the phase lanes, problems flagged for the red colour.
  auto ivs = collective_intervals(t);
  REQUIRE(ivs.size() == 11);
  CHECK(ivs[static_cast<size_t>(desync_bar)].problem);
  CHECK(ivs[0].thread == "collectives");
  CHECK(ivs[0].source == TimelineSource::collective);
}

TEST_CASE("collective timeline of a database without collectives is empty") {
  std::string path = tlscope::test::make_fixture_db(std::string(TLSCOPE_BINARY_DIR) +
                                                    "/tests/views_no_collectives.db");
  Database db(path);
  REQUIRE(db.ok());
  auto runs_read = load_trace_runs(db);
  auto t_read = load_collective_timeline(db, runs_read.value);
  CHECK(runs_read.ok());
  CHECK(t_read.ok());
  CollectiveTimeline t = t_read.value;
  CHECK(t.records == 0);
  CHECK(t.lanes.empty());
  CHECK(t.markers.empty());
}
