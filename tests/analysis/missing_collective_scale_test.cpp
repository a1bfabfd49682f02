// The hung-rank case the tool exists to diagnose: one rank's log whose group peer never logged.
// Every match is then a gap; finding the first gap of each group once took time quadratic in the
// number of collectives (issue 12, 5). SQLite's count of virtual-machine steps, unlike wall
// time, does not depend on the machine's load, so the test compares those.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>

#include "analysis_harness.hpp"
#include "common/scratch_files.hpp"
#include "tlscope/parser/md5.hpp"

using namespace tlscope;

namespace {

// Rank 0 of the two-rank group "0" runs `count` all_reduces; rank 1 never writes a line.
std::string rank0_log(int count) {
  std::string out;
  for (int seq = 1; seq <= count; ++seq) {
    double created = 1764441601123000.0 + seq * 1000.0;
    char payload[512];
    std::snprintf(payload, sizeof payload,
                  "{\"pg_name\": \"0\", \"pg_desc\": \"dp\", \"pg_ranks\": [0, 1], \"pg_size\": 2, "
                  "\"collective_seq_id\": %d, \"op\": \"all_reduce\", \"input_sizes\": [[4]], "
                  "\"input_dtypes\": [\"float32\"], \"bytes\": 16, \"state\": \"completed\", "
                  "\"time_created_us\": %.1f, \"time_started_us\": %.1f, "
                  "\"time_completed_us\": %.1f}",
                  seq, created, created + 50, created + 900);
    out +=
        "V1129 18:40:01.123000 4242 samples/runtime/collectives.cpp:88] {\"artifact\": "
        "{\"name\": \"collective_op\", \"encoding\": \"json\"}, \"rank\": 0, \"has_payload\": \"" +
        parser::Md5::hex_of(payload) + "\"}\n\t" + payload + "\n";
  }
  return out;
}

struct Measured {
  int64_t steps_k = 0;  // thousands of SQLite VM steps spent in analyze()
  std::vector<std::string> missing;
};

int count_steps(void* counter) {
  ++*static_cast<int64_t*>(counter);
  return 0;
}

Measured analyze_hung_rank(int count) {
  auto dir = test::fresh_scratch("test-analysis", "hung_rank_" + std::to_string(count));
  std::string log = (dir / "dedicated_log_torch_trace_rank_0.log").string();
  test::spit(log, rank0_log(count));
  std::string db_path = (dir / "hung.db").string();
  model::ingest(db_path, {log});
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(db_path.c_str(), &db) == SQLITE_OK);
  Measured m;
  sqlite3_progress_handler(db, 1000, count_steps, &m.steps_k);
  auto report = model::analysis::analyze(db);
  sqlite3_progress_handler(db, 0, nullptr, nullptr);
  CHECK(report.ok);
  m.missing = test::sql_rows(
      db,
      "SELECT ranks || '|' || other_ranks || '|' || pg_name || '|' || seq FROM findings "
      "WHERE kind = 'missing_collective'");
  sqlite3_close(db);
  return m;
}

}  // namespace

TEST_CASE("missing collectives: a peer that never logged costs time linear in the collectives") {
  Measured small = analyze_hung_rank(1000);
  Measured large = analyze_hung_rank(4000);
  // One finding, at the first sequence id, however long the rank ran alone.
  CHECK(small.missing == std::vector<std::string>{"[1]|[0]|0|1"});
  CHECK(large.missing == std::vector<std::string>{"[1]|[0]|0|1"});
  INFO("VM steps (thousands): " << small.steps_k << " for 1000, " << large.steps_k << " for 4000");
  // Four times the collectives: about four times the work when linear, sixteen when quadratic.
  CHECK(large.steps_k < 6 * small.steps_k);
}
