// The Chrome-trace view model on hand-built chromium rows and collectives: B/E pairs folded into
// complete events, lone begins kept as marked instants, unranked rows on a pid no rank uses,
// overlapping collectives on lanes of their own, and a broken table named with its database.
#include <catch2/catch.hpp>

#include <map>

#include "tlscope/views/trace_events.hpp"
#include "views/real_db.hpp"

using namespace tlscope;
using namespace tlscope::test;

namespace {

void chromium(FixtureDb& db, int64_t file, const std::string& rank, const std::string& name,
              const std::string& ph, double ts, const std::string& dur) {
  db.exec(
      "INSERT INTO chromium_event_rows(event_id, file_id, rank, name, cat, ph, ts, dur, pid, "
      "tid, compile_id) VALUES (1, " +
      std::to_string(file) + ", " + rank + ", '" + name + "', 'dynamo_timed', '" + ph + "', " +
      std::to_string(ts) + ", " + dur + ", 0, 0, '0/0')");
}

void collective(FixtureDb& db, int64_t rank, int seq, double created, double completed) {
  db.artifact(Ctx{}, "collective_op",
              "{\"pg_name\": \"0\", \"pg_desc\": \"dp\", \"pg_ranks\": [0, 1], \"pg_size\": 2, "
              "\"collective_seq_id\": " +
                  std::to_string(seq) +
                  ", \"op\": \"all_reduce\", \"input_sizes\": [[8]], \"output_sizes\": [[8]], "
                  "\"input_dtypes\": [\"float32\"], \"output_dtypes\": [\"float32\"], "
                  "\"state\": \"completed\", \"time_created_us\": " +
                  std::to_string(created) + ", \"time_started_us\": " + std::to_string(created) +
                  ", \"time_completed_us\": " + std::to_string(completed) + "}",
              "json", rank);
}

}  // namespace

TEST_CASE("Trace events fold B/E pairs, keep lone begins as instants and lane overlaps") {
  FixtureDb f;
  int64_t r0 = f.add_file("rank0.log", 0);
  chromium(f, r0, "0", "dynamo", "B", 1000, "4000");
  chromium(f, r0, "0", "dynamo", "E", 5000, "NULL");
  chromium(f, r0, "0", "backend_compile", "B", 1000, "500");  // starts with dynamo, shorter
  chromium(f, r0, "0", "backend_compile", "E", 1500, "NULL");
  chromium(f, r0, "0", "inductor", "B", 6000, "NULL");  // never ended
  // Two collectives of rank 0 that overlap in time, one of rank 1.
  collective(f, 0, 1, 100, 900);
  collective(f, 0, 2, 200, 300);
  f.add_file("rank1.log", 1);
  collective(f, 1, 1, 150, 950);
  int64_t unranked = f.add_file("no_rank.log", std::nullopt);
  chromium(f, unranked, "NULL", "dynamo", "X", 10, "5");
  std::string path = fixture_file(f, "trace-events");
  REQUIRE(model::analysis::ensure_analysis(path).ok);
  views::Database db(path);
  auto trace = views::load_trace_events(db);
  INFO(trace.error);
  REQUIRE(trace.ok());

  std::map<std::string, const views::TraceEvent*> by_name;
  for (const auto& e : trace->events) by_name[e.name + "@" + std::to_string(e.pid)] = &e;
  // Ranks 0 and 1 use pids 0 and 1, so the unranked log gets pid 2.
  REQUIRE(trace->processes.size() == 3);
  CHECK(trace->processes[2].pid == 2);
  CHECK(trace->processes[2].name == "no rank");
  CHECK(trace->processes[0].name == "rank 0");

  REQUIRE(by_name.count("dynamo@0"));
  CHECK(by_name["dynamo@0"]->dur_us == 4000);
  CHECK(by_name["backend_compile@0"]->dur_us == 500);
  const views::TraceEvent* lone = by_name["inductor (begin without end)@0"];
  REQUIRE(lone);
  CHECK(lone->instant());
  REQUIRE(lone->extra_args.size() == 1);
  CHECK(lone->extra_args[0] == std::pair<std::string, std::string>{"tlscope_original_ph", "B"});
  CHECK(by_name["dynamo@2"]->dur_us == 5);
  // No E row survives, and of dynamo and backend_compile (same start) the outer comes first.
  size_t dynamo = 0, backend = 0;
  for (size_t i = 0; i < trace->events.size(); ++i) {
    CHECK(trace->events[i].name.find("end without") == std::string::npos);
    if (trace->events[i].name == "dynamo" && trace->events[i].pid == 0) dynamo = i;
    if (trace->events[i].name == "backend_compile") backend = i;
  }
  CHECK(dynamo < backend);

  // Rank 0's second collective overlaps its first: lane 1 of group 0.
  const views::TraceEvent* first = by_name["all_reduce #1@0"];
  const views::TraceEvent* second = by_name["all_reduce #2@0"];
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->tid == views::kCollectiveTid);
  CHECK(second->tid == views::kCollectiveTid + 1);
  CHECK(by_name["all_reduce #1@1"]->tid == views::kCollectiveTid);
  std::map<std::pair<int64_t, int64_t>, std::string> threads;
  for (const auto& t : trace->threads) threads[{t.pid, t.tid}] = t.name;
  CHECK(threads[{0, views::kCollectiveTid + 1}] == "collectives pg 0 (dp) overlap 1");
  CHECK(threads[{0, 0}] == "compile phases");
  // Every event's thread is named.
  for (const auto& e : trace->events) CHECK(threads.count({e.pid, e.tid}) == 1);
}

TEST_CASE("Trace events of a broken collectives table name the database") {
  FixtureDb f;
  f.add_file("rank0.log", 0);
  std::string path = fixture_file(f, "trace-events-broken");
  sqlite3* raw = nullptr;
  sqlite3_open(path.c_str(), &raw);
  sql_exec(raw, "CREATE TABLE collectives(id INTEGER, rank INTEGER)");
  sqlite3_close(raw);
  views::Database db(path);
  auto trace = views::load_trace_events(db);
  CHECK_FALSE(trace.ok());
  CHECK(trace.error.find(path) != std::string::npos);
  CHECK(trace.error.find("pg_name") != std::string::npos);
}
