// Reports of every real PyTorch log (../shared/logs/torch) and of every sample-runtime scenario:
// each is written, its counts match the database or the scenario's truth.json, every link
// resolves, and their main pages load in one headless Chromium without script errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

#include "exporters/browser.hpp"
#include "exporters/report_site.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

// Each test case has its own folder: ctest may run them in parallel.
fs::path artifacts(const std::string& test) {
  return fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / ("report-logs-" + test);
}

// Ingests `inputs` into dir/tlscope.db and writes dir/site.
tlscope::exporters::ReportResult logs_report_of(const std::vector<std::string>& inputs,
                                                const fs::path& dir) {
  return tlscope::test::ingest_and_report(inputs, dir);
}

// The length of the JSON array at `path` of a JSON text (SQLite's JSON functions parse it).
long long json_array_len(const std::string& json, const std::string& path) {
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  sqlite3_stmt* s = nullptr;
  long long n = -1;
  sqlite3_prepare_v2(db, "SELECT json_array_length(?1, ?2)", -1, &s, nullptr);
  sqlite3_bind_text(s, 1, json.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 2, path.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(s) == SQLITE_ROW) n = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return n;
}

void check_site_matches_db(const fs::path& dir) {
  std::string db = (dir / "tlscope.db").string();
  fs::path site = dir / "site";
  long long compiles = db_count(db, "SELECT count(*) FROM compiles");
  long long pages = 0;
  if (fs::exists(site / "compile"))
    for (auto it = fs::directory_iterator(site / "compile"); it != fs::directory_iterator(); ++it)
      ++pages;
  CHECK(pages == compiles);
  std::string gb = slurp(site / "graph_breaks.html");
  CHECK(attr_of(gb, "graph-breaks", "data-occurrences") ==
        std::to_string(db_count(db, "SELECT count(*) FROM graph_breaks")));
  std::string rc = slurp(site / "recompiles.html");
  CHECK(attr_of(rc, "recompiles", "data-occurrences") ==
        std::to_string(db_count(db, "SELECT count(*) FROM recompiles")));
  std::string index = slurp(site / "index.html");
  CHECK(attr_of(index, "findings", "data-count") ==
        std::to_string(db_count(db, "SELECT count(*) FROM findings")));
  CHECK(attr_of(index, "card-events", "data-value") ==
        std::to_string(db_count(db, "SELECT count(*) FROM events")));
  CHECK(attr_of(index, "card-errors", "data-value") ==
        std::to_string(db_count(db, "SELECT count(*) FROM ingest_errors")));
  std::string coll = slurp(site / "collectives.html");
  CHECK(attr_of(coll, "collectives-summary", "data-records") ==
        std::to_string(db_count(db, "SELECT count(*) FROM collectives")));
  std::vector<std::string> broken = broken_links(site);
  for (const std::string& b : broken) INFO(b);
  CHECK(broken.empty());
}

std::vector<std::string> real_inputs() {
  std::vector<std::string> inputs;
  for (const auto& e : fs::directory_iterator(TLSCOPE_SHARED_LOGS))
    if (e.path().extension() == ".log" || e.is_directory()) inputs.push_back(e.path().string());
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

fs::path sample_binary() {
  return fs::path(TLSCOPE_BINARY_DIR) / "samples" / "runtime" / "tlscope-sample";
}

extern const std::vector<std::string> kScenarios;

// Runs `scenario` of the sample runtime into root/logs-<scenario> and reports it into
// root/sample-<scenario>; returns the report and the scenario's truth.json.
std::pair<tlscope::exporters::ReportResult, std::string> sample_report(
    const fs::path& root, const std::string& scenario) {
  fs::path logs = root / ("logs-" + scenario);
  fs::remove_all(logs);
  std::string cmd =
      sample_binary().string() + " " + scenario + " --out " + logs.string() + " > /dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return {{}, ""};
  std::string truth = slurp(logs / "truth.json");
  return {logs_report_of({logs.string()}, root / ("sample-" + scenario)), truth};
}

const std::vector<std::string> kScenarios = {
    "mlp",  "graph-breaks",        "recompiles", "dynamic-shapes", "compile-failure",
    "ddp",  "ddp-compiled",        "mesh-2d",    "desync",         "straggler",
    "hang", "shape-specialization"};

}  // namespace

TEST_CASE("reports of every real PyTorch log match their databases") {
  std::vector<std::string> inputs = real_inputs();
  REQUIRE(inputs.size() >= 10);  // 10 single logs and 2 rank folders in ../shared/logs/torch
  for (const std::string& in : inputs) {
    INFO(in);
    fs::path dir = artifacts("real") / fs::path(in).stem();
    auto r = logs_report_of({in}, dir);
    INFO(r.error);
    REQUIRE(r.ok);
    check_site_matches_db(dir);
  }
  // Values read off the logs: comp_failure.log holds one BackendCompilerFailed compile;
  // simple_corrupted_json.log one broken envelope; multi_rank_logs four ranks.
  std::string fail = slurp(artifacts("real") / "comp_failure" / "site" / "failures.html");
  CHECK(attr_of(fail, "failures", "data-occurrences") == "1");
  CHECK(fail.find("BackendCompilerFailed") != std::string::npos);
  std::string corrupt = slurp(artifacts("real") / "simple_corrupted_json" / "site" / "index.html");
  CHECK(attr_of(corrupt, "card-errors", "data-value") != "0");
  std::string ranks = slurp(artifacts("real") / "multi_rank_logs" / "site" / "ranks.html");
  CHECK(attr_of(ranks, "rank-count", "data-count") == "4");
}

TEST_CASE("reports of every sample-runtime scenario agree with truth.json") {
  REQUIRE(fs::exists(sample_binary()));
  for (const std::string& scenario : kScenarios) {
    INFO(scenario);
    fs::path dir = artifacts("truth") / ("sample-" + scenario);
    auto [r, truth] = sample_report(artifacts("truth"), scenario);
    REQUIRE(!truth.empty());
    INFO(r.error);
    REQUIRE(r.ok);
    check_site_matches_db(dir);
    fs::path site = dir / "site";
    // What the pages show equals what the runtime really did.
    CHECK(attr_of(slurp(site / "graph_breaks.html"), "graph-breaks", "data-occurrences") ==
          std::to_string(json_array_len(truth, "$.graph_breaks")));
    CHECK(attr_of(slurp(site / "recompiles.html"), "recompiles", "data-occurrences") ==
          std::to_string(json_array_len(truth, "$.recompiles")));
    CHECK(attr_of(slurp(site / "failures.html"), "failures", "data-occurrences") ==
          std::to_string(json_array_len(truth, "$.failures")));
    std::string coll = slurp(site / "collectives.html");
    CHECK(attr_of(coll, "collectives-summary", "data-records") ==
          std::to_string(json_array_len(truth, "$.collectives")));
    if (scenario == "desync") CHECK(attr_of(coll, "collectives-summary", "data-desyncs") == "1");
    if (scenario == "straggler")
      CHECK(attr_of(coll, "collectives-summary", "data-stragglers") != "0");
    if (scenario == "hang") CHECK(attr_of(coll, "collectives-summary", "data-missing") != "0");
    if (scenario == "ddp") {
      CHECK(attr_of(coll, "collectives-summary", "data-desyncs") == "0");
      // The profiler's spans of collectives ("nccl:all_reduce", one per bucket) wear their
      // op's colour on the compile timeline, not the grey of "other phase".
      std::string timeline = slurp(site / "data" / "compile_timeline.js");
      CHECK(timeline.find("[\"nccl:all_reduce\",\"all_reduce\",") != std::string::npos);
      CHECK(timeline.find("\"nccl:all_reduce\",\"other_phase\"") == std::string::npos);
      CHECK(timeline.find("\"all_reduce\":\"#") != std::string::npos);  // its legend colour
    }
  }
}

TEST_CASE("the real-log and scenario reports load in headless Chromium") {
  REQUIRE(chromium_path() != nullptr);
  fs::path root = artifacts("browser");
  for (const std::string& in : real_inputs())
    REQUIRE(logs_report_of({in}, root / fs::path(in).stem()).ok);
  for (const std::string& scenario : kScenarios) REQUIRE(sample_report(root, scenario).first.ok);
  std::vector<std::string> pages;
  for (const auto& site : fs::directory_iterator(root)) {
    if (!fs::exists(site.path() / "site" / "index.html")) continue;
    // Every page family of the fixture report is checked in browser_test.cpp; here, per report,
    // the pages whose content depends most on the log: the summary, the script-drawn timelines,
    // the tree and tables, and the first compile page and tensor drawing.
    fs::path s = site.path() / "site";
    for (const char* page : {"index.html", "compiles.html", "graph_breaks.html", "collectives.html",
                             "compile_timeline.html", "ranks.html", "tensors.html", "export.html"})
      pages.push_back(fs::relative(s / page, root).string());
    for (const char* folder : {"compile", "tensor"}) {
      std::vector<fs::path> files;
      if (fs::exists(s / folder))
        for (const auto& f : fs::directory_iterator(s / folder)) files.push_back(f.path());
      std::sort(files.begin(), files.end());
      if (!files.empty()) pages.push_back(fs::relative(files.front(), root).string());
    }
  }
  std::sort(pages.begin(), pages.end());
  PageCheck check = check_pages(root, pages, "harness");
  INFO(check.json.substr(0, 4000));
  CHECK(page_count(check.json) == pages.size());
  for (const std::string& bad : pages_where_not(check.json, "ready", "\"1\"")) INFO(bad);
  CHECK(pages_where_not(check.json, "ready", "\"1\"").empty());
  CHECK(pages_where_not(check.json, "errors", "0").empty());
  CHECK(check.stderr_text.find("Uncaught") == std::string::npos);
  CHECK(check.stderr_text.find("Refused to") == std::string::npos);
}
