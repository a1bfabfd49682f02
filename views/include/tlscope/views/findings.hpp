// The findings of every analysis, grouped by kind in the one order of kFindingKinds (most serious
// first): what the report's index, `tlscope summary` and the viewer's findings panel list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/model/analysis/finding_kinds.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

using model::analysis::FindingKindInfo;
using model::analysis::kFindingKinds;

struct FindingRow {
  int64_t id = 0;
  std::string kind, severity;  // severity: error, warning, info
  std::vector<int64_t> ranks;
  std::string compile_id;  // "" when the finding is not about one compile
  std::string message;     // plain words, log text included: escape it for the output
};

struct FindingGroup {
  const FindingKindInfo* kind = nullptr;  // title, page, colour
  int64_t count = 0;                      // findings of this kind
  std::vector<FindingRow> rows;           // the first `rows_per_kind`, in log order
};

// A rank that was the straggler of several collectives of one process group.
struct LateRank {
  std::vector<int64_t> ranks;
  std::string pg_name, pg_desc;
  int64_t times = 0;
  double wait_us = 0;  // what the other ranks waited for it, in total
};

struct Findings {
  bool analysed = false;  // false: the database has no findings table (`tlscope analyze`)
  int64_t total = 0;
  std::vector<FindingGroup> groups;  // non-empty groups, in kFindingKinds order
  std::vector<FindingRow> unknown;   // rows whose kind is not in kFindingKinds, in log order
  std::vector<LateRank> late_again;  // ranks late two or more times in one group
};

// `rows_per_kind` caps each group's rows (the report shows a few; the summary all of them).
Result<Findings> load_findings(const Database& db, size_t rows_per_kind = SIZE_MAX);

}  // namespace tlscope::views
