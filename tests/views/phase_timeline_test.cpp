// The compile-phase timeline view model on the hand-built fixture (chromium_events.log's rows):
// lanes, depths, instants, the depth cap, run alignment and the details of one zone; and the lanes
// of a real log whose records all say rank 0 (multi_rank_schedule).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "tlscope/views/phase_timeline.hpp"
#include "views/real_db.hpp"
#include "views/schema_fixture.hpp"

using namespace tlscope::views;

namespace {

std::unique_ptr<Database> fixture(const std::string& name, const std::string& extra = "") {
  std::string path =
      tlscope::test::make_fixture_db(std::string(TLSCOPE_BINARY_DIR) + "/tests/" + name, extra);
  auto db = std::make_unique<Database>(path);
  INFO(db->error());
  REQUIRE(db->ok());
  return db;
}

constexpr double kT0 = 1733527213926572.8;  // dynamo's B in chromium_events.log

}  // namespace

TEST_CASE("phase timeline: matched B rows with their durations, timed from the run's start") {
  auto db = fixture("views_phases.db");
  auto runs_read = load_trace_runs(*db);
  CHECK(runs_read.ok());
  TraceRuns runs = runs_read.value;
  REQUIRE(runs.runs.size() == 1);
  CHECK(runs.origin_us(0) == Approx(kT0));
  auto p_read = load_phase_timeline(*db, runs);
  CHECK(p_read.ok());
  PhaseTimeline p = p_read.value;
  CHECK(p.phases == 3);
  CHECK(p.instants == 0);
  CHECK(p.unmatched == 3);  // the fixture's E rows have no B partner row of their own
  const Timeline& t = p.timeline;
  REQUIRE(t.intervals.size() == 3);
  CHECK(t.intervals[0].name == "dynamo");
  CHECK(t.intervals[0].rank == -1);
  CHECK(t.intervals[0].thread == "file 1 pid 0 tid 0");
  CHECK(t.intervals[0].start_us == Approx(0.0).margin(0.5));
  CHECK(t.intervals[0].end_us == Approx(163100.2).margin(0.5));
  CHECK(t.intervals[0].kind == static_cast<uint8_t>(PhaseKind::dynamo));
  CHECK(t.intervals[2].kind == static_cast<uint8_t>(PhaseKind::backend));
  // Nesting read off the log: dynamo > entire_frame_compile > backend_compile.
  REQUIRE(t.lanes.size() == 1);
  REQUIRE(t.lanes[0].depths.size() == 3);
  CHECK(t.intervals[t.lanes[0].depths[2][0].interval].name == "backend_compile");
  CHECK(lane_label(t.lanes[0], 1) == "file 1 pid 0 tid 0");
  // Over the whole 163100.2 us at 1000 px, backend_compile (478.3 us) is 2.93 px: narrow, but
  // alone on its row, so it stays a single item with count 1.
  TimelineFrame f = layout_timeline(t, {t.start_us, t.end_us, 1000, 3});
  REQUIRE(f.items.size() == 3);
  CHECK(f.items[2].count == 1);
  CHECK(f.items[2].x1 - f.items[2].x0 == Approx(478.3 * 1000 / 163100.2).epsilon(1e-3));
  // All fields and the args of one zone, for the details pane.
  auto fields_read = phase_event_fields(*db, 3);
  CHECK(fields_read.ok());
  auto fields = fields_read.value;
  // The chromium_events view's columns: the B row names its E event last.
  REQUIRE(fields.size() == 14);
  CHECK(fields[4] == std::make_pair(std::string("name"), std::string("backend_compile")));
  CHECK(fields[12].first == "args");
  CHECK(fields[13] == std::make_pair(std::string("end_event_id"), std::string("5")));
}

TEST_CASE("phase timeline: instants are kept, lanes are rank then thread, deep nesting is capped") {
  // Rank 3, tid 7: an instant inside dynamo, and 15 phases each inside the previous.
  std::string sql =
      "INSERT INTO chromium_event_rows(id, event_id, file_id, rank, name, cat, ph, ts, dur, pid, "
      "tid) VALUES "
      "(50, 50, 2, 3, 'fx_graph_cache_miss', 'dynamo_timed', 'i', 1733527213926600, NULL, 0, 7)";
  for (int i = 0; i < 15; ++i)
    sql += ", (" + std::to_string(60 + i) + ", " + std::to_string(60 + i) + ", 2, 3, 'level" +
           std::to_string(i) + "', 'x', 'X', " + std::to_string(1733527213926600.0 + i) + ", " +
           std::to_string(1000 - 2 * i) + ", 0, 8)";
  auto db = fixture("views_phases_deep.db", sql + ";");
  auto runs_read = load_trace_runs(*db);
  auto p_read = load_phase_timeline(*db, runs_read.value);
  CHECK(runs_read.ok());
  CHECK(p_read.ok());
  PhaseTimeline p = p_read.value;
  CHECK(p.instants == 1);
  CHECK(p.phases == 3 + 15);
  const Timeline& t = p.timeline;
  // Sorted by (run, rank, thread): the rankless file first, then rank 3's two threads.
  REQUIRE(t.lanes.size() == 3);
  CHECK(t.lanes[0].rank == -1);
  CHECK(t.lanes[1].rank == 3);
  CHECK(t.lanes[1].thread == "pid 0 tid 7");
  CHECK(t.lanes[2].thread == "pid 0 tid 8");
  REQUIRE(t.lanes[1].depths.size() == 1);
  const TimelineInterval& mark = t.intervals[t.lanes[1].depths[0][0].interval];
  CHECK(mark.instant);
  CHECK(mark.start_us == mark.end_us);
  CHECK(mark.kind == static_cast<uint8_t>(PhaseKind::instant));
  // Levels 12, 13 and 14 share the row of depth 12.
  REQUIRE(t.lanes[2].depths.size() == kPhaseMaxDepth + 1);
  CHECK(t.lanes[2].depths[kPhaseMaxDepth].size() == 3);
  CHECK(lane_label(t.lanes[2], 2) == "run 1 \xC2\xB7 rank 3 \xC2\xB7 pid 0 tid 8");
}

TEST_CASE("runs: files days apart are separate runs, each timed from its own start") {
  // The spans of the real multi_rank_logs: ranks 0 and 2 in one run, ranks 1 and 3 days later.
  TraceRuns r = group_into_runs({{1, 1733527213926572.0, 1733527214089672.0},
                                 {2, 1752877801875010.0, 1752877806470780.0},
                                 {3, 1733527213926570.0, 1733527214089670.0},
                                 {4, 1753139505671290.0, 1753139516200580.0},
                                 {5, 1752877801875020.0 + 30e6, 1752877801875020.0 + 31e6}});
  REQUIRE(r.runs.size() == 3);
  CHECK(r.runs[0].file_ids == std::vector<int64_t>{3, 1});
  CHECK(r.runs[1].file_ids == std::vector<int64_t>{2, 5});  // 30 s later: the same job
  CHECK(r.run_of(4) == 2);
  CHECK(r.origin_us(1) == 1752877801875010.0);
  CHECK(r.run_of(99) == 0);
  // Non-finite spans are left out rather than joining every run.
  CHECK(group_into_runs({{1, NAN, 5}}).runs.empty());
}

TEST_CASE("phase timeline of an empty database is empty, with no error") {
  std::string path = std::string(TLSCOPE_BINARY_DIR) + "/tests/views_phases_empty.db";
  std::filesystem::remove(path);
  sqlite3* raw = nullptr;
  sqlite3_open(path.c_str(), &raw);
  tlscope::test::exec_sql(raw, "CREATE TABLE unrelated(x)");
  sqlite3_close(raw);
  Database db(path);
  REQUIRE(db.ok());
  auto runs_read = load_trace_runs(db);
  auto p_read = load_phase_timeline(db, runs_read.value);
  CHECK(runs_read.ok());
  CHECK(p_read.ok());
  PhaseTimeline p = p_read.value;
  CHECK(p.timeline.lanes.empty());
  CHECK(phase_event_fields(db, 1)->empty());
}

TEST_CASE("phase timeline: lanes take the file's rank where every record logs rank 0") {
  // multi_rank_schedule's three files (ranks 0, 1 and 2 by name) log "rank": 0 on every record.
  const std::string path =
      tlscope::test::analysed_real_log("phase_file_ranks", {"multi_rank_schedule"});
  REQUIRE(tlscope::test::query_rows(path, "SELECT DISTINCT rank FROM chromium_events") ==
          std::vector<std::string>{"0"});
  Database db(path);
  REQUIRE(db.ok());
  auto runs_read = load_trace_runs(db);
  auto p_read = load_phase_timeline(db, runs_read.value);
  CHECK(runs_read.ok());
  CHECK(p_read.ok());
  PhaseTimeline p = p_read.value;
  // One lane per file, with that file's rank and all of its slices and marks.
  std::vector<std::string> lanes;
  for (const auto& lane : p.timeline.lanes) {
    size_t zones = 0;
    for (const auto& d : lane.depths) zones += d.size();
    lanes.push_back(std::to_string(lane.rank) + "|" + std::to_string(zones));
  }
  std::sort(lanes.begin(), lanes.end());
  CHECK(lanes == tlscope::test::query_rows(
                     path,
                     "SELECT f.rank || '|' || count(*) FROM chromium_events c JOIN files f "
                     "ON f.id = c.file_id WHERE c.ts IS NOT NULL AND ((c.dur IS NOT NULL AND "
                     "c.ph IN ('B', 'X')) OR c.ph IN ('i', 'I')) GROUP BY f.rank ORDER BY 1"));
  CHECK(lanes.size() == 3);
}
