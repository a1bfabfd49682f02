// Test harness: ingest logs with the real store (as `tlscope ingest` does), run the analyses, and
// query the result.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/sql_rows.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

namespace tlscope::test {

class AnalyzedDb {
 public:
  // Ingests `inputs` into a fresh database named after `name` under the build directory.
  AnalyzedDb(const std::string& name, const std::vector<std::string>& inputs) {
    std::filesystem::path dir = std::filesystem::path(TLSCOPE_BINARY_DIR) / "test-analysis";
    std::filesystem::create_directories(dir);
    path_ = (dir / (name + ".db")).string();
    std::filesystem::remove(path_);
    auto result = model::ingest(path_, inputs);
    ingest_problems_ = result.problems;
    for (const auto& problem : result.problems) problems_text_ += problem + "\n";
    if (sqlite3_open(path_.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("open " + path_);
    report_ = model::analysis::analyze(db_);
  }
  ~AnalyzedDb() { sqlite3_close(db_); }
  AnalyzedDb(const AnalyzedDb&) = delete;
  AnalyzedDb& operator=(const AnalyzedDb&) = delete;

  sqlite3* db() const { return db_; }
  const std::string& path() const { return path_; }
  const model::analysis::AnalysisReport& report() const { return report_; }
  // Inputs that could not be read at all (a wrong TLSCOPE_SHARED_LOGS shows up here).
  const std::string& ingest_problems() const { return problems_text_; }

  // Rows of a query, columns joined with '|', NULL written as NULL.
  std::vector<std::string> rows(const std::string& sql) const { return sql_rows(db_, sql); }
  std::string scalar(const std::string& sql) const {
    auto r = rows(sql);
    return r.empty() ? "" : r.front();
  }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  std::vector<std::string> ingest_problems_;
  std::string problems_text_;
  model::analysis::AnalysisReport report_;
};

}  // namespace tlscope::test
