// The analysis passes' declared tables (analyze.cpp's one list): the runner's order respects them,
// and they hold what each pass's SQL really reads and writes on the real logs.
#include <sqlite3.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

namespace analysis = tlscope::model::analysis;
using analysis::PassTables;

namespace {

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Every pass in `order` comes after each pass that writes a table it reads (a pass that writes
// a table it reads, after the writers declared before it).
void check_topological(const std::vector<PassTables>& passes, const std::vector<size_t>& order) {
  REQUIRE(order.size() == passes.size());
  std::vector<size_t> place(passes.size());
  for (size_t at = 0; at < order.size(); ++at) place[order[at]] = at;
  for (size_t i = 0; i < passes.size(); ++i) {
    for (const std::string& table : passes[i].reads) {
      for (size_t w = 0; w < passes.size(); ++w) {
        if (w == i || !has(passes[w].writes, table)) continue;
        if (has(passes[i].writes, table) && w > i) continue;
        INFO(passes[i].name << " reads " << table << ", which " << passes[w].name << " writes");
        CHECK(place[w] < place[i]);
      }
    }
  }
}

}  // namespace

TEST_CASE("analysis passes: the runner's order puts every writer before its readers") {
  const std::vector<PassTables> passes = analysis::declared_passes();
  REQUIRE(passes.size() >= 18);
  const std::vector<size_t> order = analysis::pass_order(passes);
  check_topological(passes, order);
  // findings reads what nearly every pass writes: it runs last.
  CHECK(passes[order.back()].name == "findings");

  // Declared first, findings still runs after every pass whose tables it reads.
  std::vector<PassTables> moved = passes;
  std::rotate(moved.begin(), moved.end() - 1, moved.end());
  REQUIRE(moved.front().name == "findings");
  const std::vector<size_t> moved_order = analysis::pass_order(moved);
  check_topological(moved, moved_order);
  CHECK(moved_order.front() != 0);
}

TEST_CASE("analysis passes: every analysis table has one declared writer, the one it names") {
  const std::vector<PassTables> passes = analysis::declared_passes();
  for (const analysis::AnalysisTable& table : analysis::analysis_tables()) {
    INFO(table.name << " (written by " << table.pass << ")");
    auto writer = std::find_if(passes.begin(), passes.end(),
                               [&](const PassTables& p) { return p.name == table.pass; });
    REQUIRE(writer != passes.end());
    CHECK(has(writer->writes, table.name));
  }
}

TEST_CASE("pass_order: a cycle and two blind writers of one table are refused by name") {
  std::vector<PassTables> cycle = {{"a", {"t2"}, {"t1"}}, {"b", {"t1"}, {"t2"}}};
  CHECK_THROWS_WITH(analysis::pass_order(cycle),
                    Catch::Contains("cycle") && Catch::Contains("a, b"));
  std::vector<PassTables> twice = {{"a", {}, {"t"}}, {"b", {}, {"t"}}};
  CHECK_THROWS_WITH(analysis::pass_order(twice), Catch::Contains("both write t"));
  // A later writer that reads the table (an update of what the first made) follows it.
  std::vector<PassTables> update = {
      {"reader", {"t"}, {"r"}}, {"maker", {}, {"t"}}, {"updater", {"t"}, {"t"}}};
  const std::vector<size_t> order = analysis::pass_order(update);
  CHECK(order == std::vector<size_t>{1, 2, 0});
}

TEST_CASE("analysis passes: the declared tables hold what each pass's SQL touches (real logs)") {
  const std::filesystem::path logs(TLSCOPE_SHARED_LOGS);
  std::vector<std::string> inputs;
  for (const char* name : {"comp_metrics.log", "comp_failure.log", "chromium_events.log",
                           "artifacts.log", "inductor_provenance_jit_log.txt", "export.log",
                           "vllm_post_grad_diff.log", "multi_rank_schedule", "multi_rank_logs"})
    inputs.push_back((logs / name).string());
  const std::filesystem::path dir = std::filesystem::path(TLSCOPE_BINARY_DIR) / "test-analysis";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "pass_tables.db").string();
  std::filesystem::remove(path);
  tlscope::model::ingest(path, inputs);

  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  // The names the check speaks of: the ingest's tables and views and the analysis tables. A
  // scratch table a pass makes and drops is its own.
  std::set<std::string> known;
  {
    sqlite3_stmt* q = nullptr;
    sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')", -1, &q,
                       nullptr);
    while (sqlite3_step(q) == SQLITE_ROW)
      known.insert(reinterpret_cast<const char*>(sqlite3_column_text(q, 0)));
    sqlite3_finalize(q);
  }
  for (const analysis::AnalysisTable& table : analysis::analysis_tables()) known.insert(table.name);

  analysis::AnalysisOptions options;
  options.record_tables = true;
  options.concurrent_from_bytes = INT64_MAX;  // every pass on the recorded connection
  const analysis::AnalysisReport report = analysis::analyze(db, options);
  sqlite3_close(db);
  INFO(report.error);
  REQUIRE(report.ok);

  const std::vector<PassTables> declared = analysis::declared_passes();
  REQUIRE(report.tables_used.size() == declared.size());
  size_t reads_seen = 0;
  for (const PassTables& used : report.tables_used) {
    auto decl = std::find_if(declared.begin(), declared.end(),
                             [&](const PassTables& p) { return p.name == used.name; });
    REQUIRE(decl != declared.end());
    for (const std::string& table : used.reads) {
      if (!known.count(table)) continue;
      ++reads_seen;
      INFO("pass " << used.name << " reads " << table);
      CHECK((has(decl->reads, table) || has(decl->writes, table)));
    }
    for (const std::string& table : used.writes) {
      if (!known.count(table)) continue;
      INFO("pass " << used.name << " writes " << table);
      CHECK(has(decl->writes, table));
    }
  }
  CHECK(reads_seen > 20);  // the recorder saw the passes' statements
}
