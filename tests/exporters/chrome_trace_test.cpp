// Chrome-trace export of the two-rank fixture: valid JSON in the Trace Event Format with one
// process per rank, compile phases as complete events and collectives on their own track.
#include <catch2/catch.hpp>

#include "exporters/browser.hpp"
#include "exporters/report_fixture.hpp"
#include "exporters/report_support.hpp"
#include "exporters/trace_event_rules.hpp"
#include "tlscope/exporters/chrome_trace.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

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
  // The collectives come from the analysis tables; the report builds them on first use.
  const FixtureReport f = fixture_report("chrome-trace");
  REQUIRE(f.result.ok);
  const fs::path& root = f.root;
  const std::string& db = f.db;

  std::string out = (root / "trace.json").string();
  auto r = tlscope::exporters::export_chrome_trace(db, out);
  INFO(r.error);
  REQUIRE(r.ok);
  std::string json = slurp(out);
  REQUIRE(json_query(json, "SELECT json_valid(?1)") == 1);
  CHECK(json_query(json, "SELECT json_array_length(?1, '$.traceEvents')") ==
        static_cast<long long>(r.events));
  auto count = [&](const std::string& where) {
    return json_query(json, "SELECT count(*) FROM json_each(?1, '$.traceEvents') WHERE " + where);
  };
  // Process names for ranks 0 and 1, 2 phases per rank as complete events, 3 collectives per
  // rank on pid = rank.
  CHECK(count("json_extract(value, '$.name') = 'process_name'") == 2);
  CHECK(
      count(
          "json_extract(value, '$.cat') = 'dynamo_timed' AND json_extract(value, '$.ph') = 'X'") ==
      4);
  CHECK(count("json_extract(value, '$.cat') = 'collective'") == 6);
  CHECK(count("json_extract(value, '$.pid') = 1 AND json_extract(value, '$.cat') = 'collective'") ==
        3);
  CHECK(count("json_extract(value, '$.name') = 'backend_compile' AND json_extract(value, '$.dur') "
              "= 2500") == 2);
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

TEST_CASE("chrome-trace export refuses a database whose collectives cannot be read") {
  // The old exporter skipped a table whose query failed and wrote a trace without it.
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "chrome-trace-broken";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string db = (dir / "broken.db").string();
  FixtureDb f;
  f.add_file("rank0.log", 0);
  f.exec("CREATE TABLE collectives(id INTEGER, rank INTEGER)");
  f.exec("VACUUM INTO " + FixtureDb::q(db));
  auto r = tlscope::exporters::export_chrome_trace(db, (dir / "trace.json").string());
  CHECK_FALSE(r.ok);
  CHECK(r.error.find(db) != std::string::npos);
  CHECK(r.error.find("pg_name") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "trace.json"));
}

namespace {

// The trace of `inputs` ingested into dir/tlscope.db, checked against the format rules.
std::string trace_of(const std::vector<std::string>& inputs, const fs::path& dir,
                     tlscope::exporters::ChromeTraceResult& r) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string db = (dir / "tlscope.db").string();
  tlscope::model::ingest(db, inputs);
  sqlite3* handle = nullptr;
  sqlite3_open(db.c_str(), &handle);
  REQUIRE(tlscope::model::analysis::analyze(handle).ok);
  sqlite3_close(handle);
  r = tlscope::exporters::export_chrome_trace(db, (dir / "trace.json").string());
  return slurp(dir / "trace.json");
}

// Loads trace.json (beside a harness page) through Chromium's XMLHttpRequest and JSON.parse
// and reports what the parsed object holds.
std::string chromium_parse(const fs::path& dir) {
  std::ofstream(dir / "parse.js") << R"JS(
var r = {};
try {
  var x = new XMLHttpRequest();
  x.open("GET", "trace.json", false);
  x.send();
  var t = JSON.parse(x.responseText);
  r.array = Array.isArray(t.traceEvents);
  r.events = t.traceEvents.length;
  r.x = t.traceEvents.filter(function (e) { return e.ph === "X"; }).length;
  r.m = t.traceEvents.filter(function (e) { return e.ph === "M"; }).length;
} catch (e) { r.error = String(e); }
document.getElementById("out").textContent = JSON.stringify(r);
)JS";
  std::ofstream(dir / "parse.html")
      << "<!DOCTYPE html><html><body><pre id=\"out\"></pre><script src=\"parse.js\"></script>"
         "</body></html>\n";
  std::string cmd =
      chromium_command(dir / "profile") + " --allow-file-access-from-files --dump-dom file://" +
      (dir / "parse.html").string() + " > " + (dir / "parse.dom").string() + " 2>/dev/null";
  std::system(cmd.c_str());
  fs::remove_all(dir / "profile");
  std::string dom = slurp(dir / "parse.dom");
  size_t a = dom.find("<pre id=\"out\">"), b = dom.find("</pre>");
  return a == std::string::npos || b == std::string::npos ? "" : dom.substr(a + 14, b - a - 14);
}

}  // namespace

TEST_CASE("chrome-trace of a sample scenario and of a real multi-rank log follows the format") {
  REQUIRE(chromium_path() != nullptr);
  fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "chrome-trace-rules";
  fs::remove_all(root);
  // mesh-2d: 4 ranks, compile phases, collectives in and out of graphs (docs/runtime.md).
  std::string sample = (fs::path(TLSCOPE_BINARY_DIR) / "samples/runtime/tlscope-sample").string();
  fs::create_directories(root);
  REQUIRE(
      std::system((sample + " mesh-2d --out " + (root / "mesh-logs").string() + " > /dev/null 2>&1")
                      .c_str()) == 0);
  struct Case {
    std::string name;
    std::vector<std::string> inputs;
    std::set<long long> pids;
  };
  std::vector<Case> cases = {
      {"mesh-2d", {(root / "mesh-logs").string()}, {0, 1, 2, 3}},
      // multi_rank_logs: one file per rank 0-3 with chromium_event B/E pairs.
      {"multi_rank_logs", {std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs"}, {0, 1, 2, 3}},
      // chromium_events.log: a single process (no rank) -> pid 0.
      {"chromium_events", {std::string(TLSCOPE_SHARED_LOGS) + "/chromium_events.log"}, {0}}};
  for (const Case& c : cases) {
    INFO(c.name);
    fs::path dir = root / c.name;
    tlscope::exporters::ChromeTraceResult r;
    std::string json = trace_of(c.inputs, dir, r);
    INFO(r.error);
    REQUIRE(r.ok);
    TraceCheck rules = check_trace_rules(json);
    for (const std::string& v : rules.violations) INFO(v);
    CHECK(rules.violations.empty());
    CHECK(rules.pids == c.pids);
    CHECK(rules.events.size() == r.events);
    // Every matched B/E pair of the database is one X event; no B or E is written.
    std::string db = (dir / "tlscope.db").string();
    CHECK(rules.by_ph["X"] ==
          db_count(db, "SELECT count(*) FROM chromium_events WHERE ph = 'B' AND dur IS NOT NULL") +
              db_count(db, "SELECT count(*) FROM chromium_events WHERE ph = 'X'") +
              db_count(db, "SELECT count(*) FROM collectives"));
    CHECK(rules.by_ph.count("B") == 0);
    CHECK(rules.by_ph.count("E") == 0);
    CHECK(rules.by_ph["X"] > 0);
    // Chromium's own JSON parser reads the same events.
    std::string parsed = chromium_parse(dir);
    CHECK(parsed == "{\"array\":true,\"events\":" + std::to_string(r.events) +
                        ",\"x\":" + std::to_string(rules.by_ph["X"]) +
                        ",\"m\":" + std::to_string(rules.by_ph["M"]) + "}");
  }
  // Collectives sit on pid = the rank that logged them.
  std::string mesh_db = (root / "mesh-2d" / "tlscope.db").string();
  std::string json = slurp(root / "mesh-2d" / "trace.json");
  for (int rank = 0; rank < 4; ++rank) {
    CHECK(
        json_query(json,
                   "SELECT count(*) FROM json_each(?1, '$.traceEvents') WHERE "
                   "json_extract(value, '$.cat') = 'collective' AND "
                   "json_extract(value, '$.pid') = " +
                       std::to_string(rank)) ==
        db_count(mesh_db, "SELECT count(*) FROM collectives WHERE rank = " + std::to_string(rank)));
  }
}

TEST_CASE("the trace-format checker rejects what Perfetto and chrome://tracing would not load") {
  auto violations = [](const std::string& events) {
    return check_trace_rules("{\"traceEvents\": [" + events + "]}").violations;
  };
  const std::string names =
      "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"r\"}},"
      "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"t\"}},";
  CHECK(violations(names + "{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":2}")
            .empty());
  CHECK(check_trace_rules("[]").violations.size() == 1);  // no traceEvents object
  CHECK(violations(names + "{\"ph\":\"B\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1}").size() ==
        1);
  CHECK(violations(names + "{\"ph\":\"E\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1}").size() ==
        1);
  CHECK(violations(names + "{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":-2}")
            .size() == 1);
  CHECK(violations(names + "{\"ph\":\"X\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1,\"dur\":5},"
                           "{\"ph\":\"X\",\"name\":\"b\",\"pid\":0,\"tid\":0,\"ts\":3,\"dur\":5}")
            .size() == 1);  // b starts inside a and ends after it
  CHECK(violations(names + "{\"ph\":\"Q\",\"name\":\"a\",\"pid\":0,\"tid\":0,\"ts\":1}").size() ==
        1);
  CHECK(
      violations(names + "{\"ph\":\"i\",\"name\":\"a\",\"pid\":\"0\",\"tid\":0,\"ts\":1}").size() >=
      1);
  // A thread without a thread_name, a pid without a process_name.
  CHECK(violations("{\"ph\":\"X\",\"name\":\"a\",\"pid\":3,\"tid\":4,\"ts\":1,\"dur\":2}").size() ==
        2);
}
