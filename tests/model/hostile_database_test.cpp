// Databases made by someone else (docs/schema.md, "Databases from elsewhere"): SQL stored in the
// file - a trigger on a table tlscope writes, a view where tlscope keeps a table - must not run
// when tlscope appends to it, analyses it or merges it. The databases are real ingests of the
// shared logs, altered with the SQLite API the way a hostile colleague would.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "common/sql_rows.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/connection_guard.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/merge.hpp"

using namespace tlscope;
using Catch::Matchers::Contains;

namespace {

namespace fs = std::filesystem;

const std::string kHostileLogs = TLSCOPE_SHARED_LOGS;

// Runs `sql` on `path` with a plain connection, as any SQLite user could.
void alter(const std::string& path, const std::string& sql) {
  REQUIRE_NOTHROW(test::sql_exec_file(path, sql));
}

int64_t count(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(s) == SQLITE_ROW);
  int64_t n = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return n;
}

std::string ingested(const fs::path& dir, const std::string& name, const std::string& log) {
  std::string db = (dir / name).string();
  model::IngestResult r = model::ingest(db, {kHostileLogs + "/" + log});
  REQUIRE(r.problems.empty());
  return db;
}

// A trigger on every table a write goes through, each recording that it ran.
const char* kPlantedTriggers = R"sql(
CREATE TABLE pwned(what TEXT);
CREATE TRIGGER on_event AFTER INSERT ON events BEGIN INSERT INTO pwned VALUES('events'); END;
CREATE TRIGGER on_file AFTER INSERT ON files BEGIN INSERT INTO pwned VALUES('files'); END;
CREATE TRIGGER on_file_update AFTER UPDATE ON files BEGIN INSERT INTO pwned VALUES('files'); END;
CREATE TRIGGER on_meta BEFORE INSERT ON meta BEGIN INSERT INTO pwned VALUES('meta'); END;
CREATE TRIGGER on_payload_gone AFTER DELETE ON payloads BEGIN INSERT INTO pwned VALUES('x'); END;
)sql";

}  // namespace

TEST_CASE("a trigger stored in a database runs neither in an append nor in its analysis",
          "[model][hostile]") {
  fs::path dir = test::fresh_scratch("model_scratch", "hostile_triggers");
  std::string db = ingested(dir, "a.db", "simple.log");
  alter(db, kPlantedTriggers);
  // The planted triggers do fire for an ordinary SQLite user: the test can see them run.
  alter(db, "INSERT INTO meta VALUES('probe', 'x'); DELETE FROM meta WHERE key = 'probe'");
  REQUIRE(count(db, "SELECT count(*) FROM pwned") == 1);
  alter(db, "DELETE FROM pwned");

  model::IngestResult appended = model::ingest(db, {kHostileLogs + "/comp_failure.log"});
  CHECK(appended.problems.empty());
  CHECK(count(db, "SELECT count(*) FROM files") == 2);  // the append itself worked
  model::analysis::AnalysisReport report = model::analysis::analyze_database(db);
  INFO(report.error);
  CHECK(report.ok);
  CHECK(count(db, "SELECT count(*) FROM findings") > 0);
  CHECK(count(db, "SELECT count(*) FROM pwned") == 0);
}

TEST_CASE("a merge runs no trigger of its shards or of the output it adds to", "[model][hostile]") {
  fs::path dir = test::fresh_scratch("model_scratch", "hostile_merge");
  std::string shard = ingested(dir, "shard.db", "simple.log");
  std::string out = ingested(dir, "out.db", "comp_failure.log");
  alter(shard, kPlantedTriggers);
  alter(out, kPlantedTriggers);
  model::MergeResult merged = model::merge_databases(out, {shard});
  CHECK(merged.events > 0);
  CHECK(count(out, "SELECT count(*) FROM files") == 2);
  CHECK(count(out, "SELECT count(*) FROM pwned") == 0);
  CHECK(count(shard, "SELECT count(*) FROM pwned") == 0);
}

TEST_CASE("an analysis refuses a table that is a view instead of running the view's SQL",
          "[model][hostile]") {
  fs::path dir = test::fresh_scratch("model_scratch", "hostile_view");
  std::string db = ingested(dir, "a.db", "comp_failure.log");
  // A view the analysis would read for ever: the metrics rows table as a CTE without an end. The
  // watchdog's limit is lowered so that, were the view run, the test would end in seconds.
  alter(db,
        "ALTER TABLE compilation_metrics_rows RENAME TO compilation_metrics_real;"
        "CREATE VIEW compilation_metrics_rows AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL "
        "SELECT x + 1 FROM r) SELECT x AS event_id, 1 AS file_id, x AS rank, 'k' AS kind, "
        "'0/0' AS compile_id, 0 AS frame_id, 0 AS frame_compile_id, 0 AS attempt, "
        "'f' AS co_name, 'f' AS co_filename, 1 AS co_firstlineno FROM r");
  setenv("TLSCOPE_STATEMENT_SECONDS", "3", 1);
  model::analysis::AnalysisReport report = model::analysis::analyze_database(db);
  unsetenv("TLSCOPE_STATEMENT_SECONDS");
  CHECK_FALSE(report.ok);
  CHECK_THAT(report.error, Contains("views tlscope never makes: compilation_metrics_rows"));
  CHECK_THAT(report.error, Contains("not made by tlscope or was altered"));
}

TEST_CASE("a statement that works too long without a row is stopped and says why",
          "[model][hostile]") {
  fs::path dir = test::fresh_scratch("model_scratch", "hostile_runaway");
  std::string db = ingested(dir, "a.db", "simple.log");
  setenv("TLSCOPE_STATEMENT_SECONDS", "0.5", 1);
  model::Connection c(db, model::OpenMode::kReadOnly);
  unsetenv("TLSCOPE_STATEMENT_SECONDS");
  // Hostile data can make a join of tlscope's own SQL take hours; an endless CTE stands for it.
  std::string error;
  try {
    c.scalar_int(
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
        "SELECT count(*) FROM r");
  } catch (const model::SqliteError& e) {
    error = e.what();
  }
  CHECK_THAT(error, Contains("interrupted"));
  CHECK_THAT(error, Contains("TLSCOPE_STATEMENT_SECONDS"));
  // The connection reads on after the stop.
  model::Statement rows = c.prepare("SELECT id FROM events");
  int64_t n = 0;
  while (rows.step()) ++n;
  CHECK(n == 76);  // simple.log's events
}

TEST_CASE("the statement time limit grows with the database file", "[model][hostile]") {
  fs::path dir = test::fresh_scratch("model_scratch", "hostile_limit");
  std::string small = (dir / "small.db").string();
  test::spit(small, std::string(1000, 'x'));
  std::string big = (dir / "big.db").string();
  test::spit(big, "");
  std::filesystem::resize_file(big, 2'000'000'000);  // sparse: 2 GB claimed, nothing written
  unsetenv("TLSCOPE_STATEMENT_SECONDS");
  CHECK(model::statement_time_limit(small).count() == Approx(30.0).epsilon(0.001));
  CHECK(model::statement_time_limit(big).count() == Approx(130.0).epsilon(0.001));
  setenv("TLSCOPE_STATEMENT_SECONDS", "7", 1);
  CHECK(model::statement_time_limit(big).count() == Approx(7.0));
  unsetenv("TLSCOPE_STATEMENT_SECONDS");
}
