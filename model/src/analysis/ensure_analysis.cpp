// Builds the analysis tables of a database that has none, for the front ends that read them.
#include <exception>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

// The tables every analysis writes last and first: both present means the analysis ran.
bool has_analysis_tables(sqlite3* db) {
  sqlite3_stmt* s = nullptr;
  bool both = sqlite3_prepare_v2(db,
                                 "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                                 "name IN ('findings', 'compiles')",
                                 -1, &s, nullptr) == SQLITE_OK &&
              sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) == 2;
  sqlite3_finalize(s);
  return both;
}

EnsuredAnalysis ensure_analysis(const std::string& path) {
  EnsuredAnalysis out;
  try {
    {
      Connection probe(path, OpenMode::kReadOnly);
      if (has_analysis_tables(probe.handle())) {
        out.ok = true;
        return out;
      }
    }
    AnalysisReport report = analyze_database(path);
    if (!report.ok) {
      out.error = path + ": analysis failed: " + report.error;
      return out;
    }
  } catch (const std::exception& e) {
    std::string why = e.what();  // open failures name the path already
    out.error = (why.rfind(path, 0) == 0 ? why : path + ": " + why) +
                " (the database has no analysis tables; run `tlscope analyze`)";
    return out;
  }
  out.ok = out.ran = true;
  return out;
}

}  // namespace tlscope::model::analysis
