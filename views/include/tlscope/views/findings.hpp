// The findings of every analysis, grouped by kind in the one order of kFindingKinds (most serious
// first): what the report's index, `tlscope summary` and the viewer's findings panel list. The
// same fact on several ranks (or recurring on one) is one line with its ranks (finding_facts.hpp);
// within a kind, lines are ordered by the time they cost; each says what it means and what to try
// (finding_causes.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/model/analysis/finding_kinds.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/finding_causes.hpp"
#include "tlscope/views/rank_words.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

using model::analysis::FindingKindInfo;
using model::analysis::kFindingKinds;

// One line: a finding, or several findings of one fact (the same text once per-process and
// per-occurrence values are cut out) merged.
struct FindingRow {
  int64_t id = 0;              // the first merged findings.id (where the line leads)
  std::string kind, severity;  // severity: error, warning, info
  std::vector<int64_t> ranks;  // every merged finding's ranks, sorted, once each
  std::string compile_id;      // "" when the finding is not about one compile (the first's)
  std::string message;         // the sentence (finding_words.hpp), log text included: escape it
  bool ranks_first = false;    // the sentence starts with its rank set ("ranks 0-3 (all 4): ...")
  int64_t occurrences = 1;     // findings rows merged into this line
  double cost_us = 0;          // time it cost: waits of a straggler, compile time of its compiles
  FindingHint hint;            // what it means and what to try
};

struct FindingGroup {
  const FindingKindInfo* kind = nullptr;  // title, page, colour
  int64_t count = 0;                      // lines of this kind
  int64_t occurrences = 0;                // findings rows of this kind
  std::vector<FindingRow> rows;           // the first `rows_per_kind` lines, costliest first
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
  int64_t total = 0;      // findings rows
  int64_t lines = 0;      // lines, after merging one fact's rows
  int64_t job_ranks = 0;  // distinct ranks of the files: the "of N" of a rank set
  std::vector<FindingGroup> groups;  // non-empty groups, in kFindingKinds order
  std::vector<FindingRow> unknown;   // lines whose kind is not in kFindingKinds, in log order
  std::vector<LateRank> late_again;  // ranks late two or more times in one group
};

// `rows_per_kind` caps each group's lines (the report shows a few; the summary all of them).
Result<Findings> load_findings(const Database& db, size_t rows_per_kind = SIZE_MAX);

}  // namespace tlscope::views
