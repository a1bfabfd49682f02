// What a reader must be told before trusting what a database shows: the files whose ingest did
// not complete (a killed ingest, a cut .gz), and whether the analysis tables still describe every
// file (docs/schema.md, `analysis_files`). The report, `tlscope summary` and `ingest --no-analyze`
// print the same warnings.
#pragma once

#include <string>
#include <vector>

#include "tlscope/views/database.hpp"

namespace tlscope::views {

struct StoreHealth {
  enum class Analysis { kNone, kCurrent, kStale };
  std::vector<std::string> incomplete_files;  // paths, in ingest order
  Analysis analysis = Analysis::kNone;
  // Stale: the files stored now but not as the analysis saw them (added, replaced, grown, since
  // completed), in ingest order; and how many files it saw that are gone.
  std::vector<std::string> files_not_analysed;
  int64_t analysed_files_gone = 0;

  // One line per problem, for a terminal or a report page (plain text: callers escape it).
  std::vector<std::string> warnings(const std::string& db_path) const;
};

// Reads `files` against `analysis_files`. A database analysed by a tlscope that did not record
// its coverage counts as stale: nothing says what its analysis covered.
StoreHealth store_health(const Database& db);

}  // namespace tlscope::views
