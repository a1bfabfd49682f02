// Chrome-trace export of the two-rank fixture: valid JSON in the Trace Event Format with one
// process per rank, compile phases as complete events and collectives on their own track.
#include <catch2/catch.hpp>

#include "exporters/report_fixture.hpp"
#include "exporters/report_support.hpp"
#include "exporters/trace_event_rules.hpp"
#include "tlscope/exporters/chrome_trace.hpp"
#include "tlscope/exporters/report.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

// Runs `sql` with ?1 bound to `json` on an in-memory SQLite (whose JSON functions parse it).
long long json_query(const std::string& json, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  sqlite3_stmt* s = nullptr;
  long long n = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK) {
    sqlite3_bind_text(s, 1, json.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(s) == SQLITE_ROW) n = sqlite3_column_int64(s, 0);
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  return n;
}

}  // namespace

TEST_CASE("chrome-trace export is valid trace JSON with pid = rank") {
  fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "chrome-trace";
  fs::remove_all(root);
  fs::create_directories(root);
  std::string db = (root / "fixture.db").string();
  write_report_fixture(db);
  // The collectives come from the analysis tables; the report builds them on first use.
  tlscope::exporters::ReportOptions o;
  o.db_path = db;
  o.out_dir = (root / "site").string();
  REQUIRE(tlscope::exporters::write_report(o).ok);

  std::string out = (root / "trace.json").string();
  auto r = tlscope::exporters::export_chrome_trace(db, out);
  INFO(r.error);
  REQUIRE(r.ok);
  std::string json = read_file(out);
  REQUIRE(json_query(json, "SELECT json_valid(?1)") == 1);
  CHECK(json_query(json, "SELECT json_array_length(?1, '$.traceEvents')") ==
        static_cast<long long>(r.events));
  auto count = [&](const std::string& where) {
    return json_query(json, "SELECT count(*) FROM json_each(?1, '$.traceEvents') WHERE " + where);
  };
  // Process names for ranks 0 and 1, 2 phases per rank as complete events, 3 collectives per
  // rank on pid = rank.
  CHECK(count("json_extract(value, '$.name') = 'process_name'") == 2);
  CHECK(count("json_extract(value, '$.cat') = 'dynamo_timed' AND json_extract(value, '$.ph') = 'X'") == 4);
  CHECK(count("json_extract(value, '$.cat') = 'collective'") == 6);
  CHECK(count("json_extract(value, '$.pid') = 1 AND json_extract(value, '$.cat') = 'collective'") == 3);
  CHECK(count("json_extract(value, '$.name') = 'backend_compile' AND json_extract(value, '$.dur') = 2500") == 2);
  TraceCheck rules = check_trace_rules(json);
  for (const std::string& v : rules.violations) INFO(v);
  CHECK(rules.violations.empty());
  CHECK(rules.pids == std::set<long long>{0, 1});
}

TEST_CASE("chrome-trace export names the file at fault") {
  auto r = tlscope::exporters::export_chrome_trace("/nonexistent/dir/x.db", "/tmp/never.json");
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("/nonexistent/dir/x.db") != std::string::npos);
}
