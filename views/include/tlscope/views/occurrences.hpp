// Repeated findings deduplicated: graph breaks by reason and user location, recompiles by the
// guard that failed, compile failures, analysis restarts and cache outcomes. Each group carries
// its own cells (plain text with a tone), the ranks it happened on and every occurrence.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// How a front end should set a cell apart; the words are the same everywhere.
enum class CellTone { kPlain, kPreformatted, kGood, kWarn, kMuted };

struct Cell {
  std::string text;
  CellTone tone = CellTone::kPlain;
};

struct Occurrence {
  int64_t file_id = 0;
  int64_t rank = -1;
  std::string compile_id;
  int64_t line = 0;    // line of the log event (0 when unknown)
  std::string detail;  // plain text shown with the occurrence
};

struct OccurrenceGroup {
  size_t index = 0;         // position among all groups, most frequent first
  std::vector<Cell> cells;  // one per OccurrenceGroups::headers
  int64_t count = 0;
  std::set<int64_t> ranks;
  std::vector<Occurrence> occurrences;  // all of them, in log order
};

struct OccurrenceGroups {
  std::vector<std::string> headers;     // the group columns ("reason", "user location", ...)
  std::vector<OccurrenceGroup> groups;  // the requested page, most frequent first
  size_t group_count = 0;               // all groups
  int64_t occurrence_count = 0;         // all occurrences
};

enum class OccurrenceList { kGraphBreaks, kRecompiles, kFailures, kRestarts, kCache };

Result<OccurrenceGroups> load_occurrence_groups(const Database& db, OccurrenceList list,
                                                Page groups = {});

struct CacheTotals {
  int64_t hits = 0, misses = 0, bypasses = 0;
};

Result<CacheTotals> load_cache_totals(const Database& db);

}  // namespace tlscope::views
