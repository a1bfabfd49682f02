// The passes that read compilation_metrics' typed columns: compiles, failures, restarts and the
// metric phases of a generated log of 2,100 compiles, each value known from the generator. They
// read compilation_metrics_rows: the ingest's table (schema version 3 on) and, in a database of
// version 2 (the whole record in compilation_metrics.json), the TEMP copy the analysis makes of a
// large table (from 2,000 records up) or the TEMP view of a small one: the same rows either way.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/analysis_harness.hpp"
#include "common/scratch_files.hpp"
#include "common/sql_rows.hpp"

using tlscope::test::AnalyzedDb;

TEST_CASE("2,100 metrics records: compiles, failures, restarts and phases, both table layouts") {
  constexpr int kCompiles = 2100;
  const std::string head = "V1206 15:20:14.089000 1543231 torch/_dynamo/utils.py:1045] ";
  std::string log;
  int failed = 0, restarted = 0;
  long long dynamo_us = 0;
  for (int i = 0; i < kCompiles; ++i) {
    const std::string ids =
        ", \"frame_id\": " + std::to_string(i) + ", \"frame_compile_id\": 0, \"attempt\": 0}\n";
    log += head + "{\"dynamo_start\": {\"stack\": []}" + ids;
    const bool fails = i % 7 == 0;
    const bool restarts = i % 11 == 0;
    failed += fails;
    restarted += restarts;
    dynamo_us += 1000 + i;
    log +=
        head + "{\"compilation_metrics\": {\"dynamo_cumulative_compile_time_us\": " +
        std::to_string(1000 + i) + ", \"co_name\": \"fn" + std::to_string(i) +
        "\", \"graph_op_count\": 3, \"fail_type\": " +
        (fails ? "\"BackendCompilerFailed\"" : "null") +
        ", \"fail_reason\": " + (fails ? "\"broken " + std::to_string(i) + "\"" : "null") +
        ", \"restart_reasons\": " + (restarts ? "[\"restart " + std::to_string(i) + "\"]" : "[]") +
        "}" + ids;
  }
  const auto dir = tlscope::test::fresh_scratch("test-analysis", "metrics_copy");
  tlscope::test::spit(dir / "metrics.log", log);
  AnalyzedDb db("metrics_copy", {(dir / "metrics.log").string()});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  REQUIRE(db.scalar("SELECT count(*) FROM compilation_metrics") == std::to_string(kCompiles));
  auto check_passes = [&] {
    CHECK(db.scalar("SELECT count(*) FROM compiles WHERE metrics_event_id IS NOT NULL") ==
          std::to_string(kCompiles));
    CHECK(db.scalar("SELECT count(*) FROM compiles WHERE status = 'failed'") ==
          std::to_string(failed));
    // Restarted and not failed: i % 11 == 0 and i % 7 != 0.
    CHECK(db.scalar("SELECT count(*) FROM compiles WHERE status = 'restarted'") ==
          std::to_string(restarted - (kCompiles + 76) / 77));
    CHECK(db.rows("SELECT compile_id, frame, fail_reason FROM failures ORDER BY id LIMIT 2") ==
          std::vector<std::string>{"0/0|fn0|broken 0", "7/0|fn7|broken 7"});
    CHECK(db.scalar("SELECT count(*) FROM failures") == std::to_string(failed));
    CHECK(db.scalar("SELECT count(*) FROM restarts") == std::to_string(restarted));
    CHECK(db.scalar("SELECT reason FROM restarts WHERE compile_id = '2090/0'") == "restart 2090");
    CHECK(
        db.scalar("SELECT count(*) || '|' || CAST(sum(duration_us) AS INTEGER) FROM compile_phases "
                  "WHERE phase = 'dynamo' AND source = 'metrics'") ==
        std::to_string(kCompiles) + "|" + std::to_string(dynamo_us));
    CHECK(db.scalar("SELECT co_name FROM compiles WHERE compile_id = '1234/0'") == "fn1234");
  };
  check_passes();

  // Version 2's layout, made from this database: one table holding the typed columns and json.
  std::string ddl = db.scalar(
      "SELECT sql FROM sqlite_master WHERE name = 'compilation_metrics_rows' AND type = 'table'");
  REQUIRE(ddl.find("compilation_metrics_rows(") != std::string::npos);
  ddl.replace(ddl.find("compilation_metrics_rows("), 25, "compilation_metrics(");
  ddl.insert(ddl.rfind(')'), ", json TEXT NOT NULL");
  tlscope::test::sql_exec(db.db(),
                          "CREATE TABLE old_metrics AS SELECT * FROM compilation_metrics;"
                          "DROP VIEW compilation_metrics; DROP TABLE compilation_metrics_rows;" +
                              ddl +
                              "; INSERT INTO compilation_metrics SELECT * FROM old_metrics;"
                              "DROP TABLE old_metrics;");
  REQUIRE(db.scalar("SELECT count(*) FROM compilation_metrics WHERE json LIKE '{%'") ==
          std::to_string(kCompiles));
  const auto again = tlscope::model::analysis::analyze(db.db());
  INFO(again.error);
  REQUIRE(again.ok);
  check_passes();
  // The analysis leaves nothing of its own behind on the connection.
  CHECK(db.scalar(
            "SELECT count(*) FROM sqlite_temp_master WHERE name = 'compilation_metrics_rows'") ==
        "0");

  // A small version-2 table is read through a view without the json, not copied: the same rows.
  tlscope::test::sql_exec(db.db(),
                          "DELETE FROM compilation_metrics WHERE CAST(substr(compile_id, 1, "
                          "instr(compile_id, '/') - 1) AS INTEGER) >= 100");
  const auto small = tlscope::model::analysis::analyze(db.db());
  INFO(small.error);
  REQUIRE(small.ok);
  CHECK(db.scalar("SELECT count(*) FROM compiles WHERE metrics_event_id IS NOT NULL") == "100");
  CHECK(db.scalar("SELECT count(*) FROM compile_phases WHERE phase = 'dynamo' AND source = "
                  "'metrics'") == "100");
  CHECK(db.scalar("SELECT co_name FROM compiles WHERE compile_id = '99/0'") == "fn99");
  CHECK(db.scalar("SELECT count(*) FROM failures") == std::to_string((99 / 7) + 1));
}
