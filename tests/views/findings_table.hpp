// The findings table as the analysis creates it (its DDL from the one list, analysis_tables()),
// for view tests that write findings by hand.
#pragma once

#include <string>
#include <string_view>

#include "tlscope/model/analysis/analyze.hpp"

namespace tlscope::test {

inline std::string findings_table_sql() {
  for (const model::analysis::AnalysisTable& t : model::analysis::analysis_tables())
    if (std::string_view(t.name) == "findings") return std::string(t.ddl) + "\n";
  return "-- no findings table\n";
}

}  // namespace tlscope::test
