// The report and the Chrome trace of a database with huge cells (docs/schema.md, "Long text"):
// each shows a cell's first kCellTextLimit bytes and its full size, so no page, and no copy in
// memory, grows with the cell. 2 MB cells prove the bound a 100 MB one needs (bench/README.md,
// "One huge string"): before, every page that showed one held all of it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "common/sql_rows.hpp"
#include "report_support.hpp"
#include "tlscope/exporters/chrome_trace.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

constexpr uintmax_t kHuge = 2'000'000;

// comp_failure.log ingested and analysed in <scratch>/run.db, then every text `columns` names
// ("table.column", one row each where it is set) set to 2 MB of 'x'.
std::string huge_cells_db(const fs::path& root, const std::vector<std::string>& columns) {
  std::string db = (root / "run.db").string();
  tlscope::model::ingest(db, {std::string(TLSCOPE_SHARED_LOGS) + "/comp_failure.log"});
  REQUIRE(tlscope::model::analysis::ensure_analysis(db).ok);
  std::string sql;
  for (const std::string& tc : columns) {
    std::string table = tc.substr(0, tc.find('.')), column = tc.substr(tc.find('.') + 1);
    sql += "UPDATE " + table + " SET " + column + " = printf('%.*c', " + std::to_string(kHuge) +
           ", 'x') WHERE rowid = (SELECT min(rowid) FROM " + table + " WHERE " + column +
           " IS NOT NULL);";
  }
  sql_exec_file(db, sql);
  return db;
}

}  // namespace

TEST_CASE("a report of a database with 2 MB cells shows them clipped, with their size",
          "[report][long]") {
  fs::path root = fresh_scratch("report_scratch", "long_cells");
  std::string db = huge_cells_db(
      root, {"compiles.fail_reason", "compiles.co_name", "compiles.co_filename",
             "failures.fail_reason", "findings.frame", "findings.detail", "files.path"});
  tlscope::exporters::ReportOptions options;
  options.db_path = db;
  options.out_dir = (root / "site").string();
  auto result = tlscope::exporters::write_report(options);
  REQUIRE(result.ok);
  uintmax_t largest = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root / "site"))
    if (entry.is_regular_file()) largest = std::max(largest, entry.file_size());
  CHECK(largest < kHuge / 4);
  std::string index = slurp(root / "site" / "index.html");
  CHECK(index.find("[clipped: 2000000 bytes in all]") != std::string::npos);
}

TEST_CASE("a Chrome trace of a database with a 2 MB name holds it clipped, with its size",
          "[report][long]") {
  fs::path root = fresh_scratch("report_scratch", "long_trace_cells");
  std::string db = huge_cells_db(root, {"chromium_event_rows.name", "compiles.co_name"});
  std::string out = (root / "trace.json").string();
  auto result = tlscope::exporters::export_chrome_trace(db, out);
  REQUIRE(result.ok);
  CHECK(fs::file_size(out) < kHuge / 4);
  CHECK(slurp(out).find("[clipped: 2000000 bytes in all]") != std::string::npos);
}

TEST_CASE("a log with a 1 MB failure reason and co_name: the report shows them clipped",
          "[report][long]") {
  fs::path root = fresh_scratch("report_scratch", "long_log_line");
  const std::string huge(1'000'000, 'R');
  auto result = report_of_log(root, comp_failure_log_with_long_names(huge));
  REQUIRE(result.ok);
  // Before, every page that showed the reason or the name held all of it, once per mention.
  CHECK(result.largest_page_bytes < huge.size() / 2);
  std::string failures = slurp(root / "site" / "failures.html");
  CHECK(failures.find(huge.substr(0, 1000)) != std::string::npos);
  CHECK(failures.find("bytes in all]") != std::string::npos);
}
