// The ranks screen (ranks.html, the viewer's divergence panel): a per-rank table of counts in
// which a cell that differs from the value most ranks have is marked, and every divergence the
// analysis found between ranks (the rank_divergence table, docs/schema.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// One row of the per-rank table: a value per rank, as text ("3", "1.25 s").
struct RankCountRow {
  std::string label;                // "compiles", "cache hits", "compile time"
  std::vector<std::string> values;  // one per RankDivergence::ranks entry
  // Whether a cell that differs from the majority is a finding. Compile time naturally varies
  // between ranks: shown for reading, never marked.
  bool compared = true;
  std::string majority;       // the value most ranks have (on a tie, the smallest as text)
  std::vector<bool> differs;  // per rank: compared and values[i] != majority
};

// One rank_divergence row: `ranks` have `value` where the reference group `other_ranks` has
// `other_value`.
struct RankDivergenceRow {
  std::string aspect, compile_id, ranks, value, other_ranks, other_value;
};

struct RankDivergence {
  std::vector<int64_t> ranks;  // the ranks of the log files, ascending
  // Empty with fewer than two ranks: there is nothing to compare.
  std::vector<RankCountRow> counts;
  Paged<RankDivergenceRow> divergences;  // in analysis order
};

// Reads the analysis tables (compiles, failures, graph_breaks, recompiles, cache_events,
// collectives, rank_divergence); a table the database lacks counts as empty.
Result<RankDivergence> load_rank_divergence(const Database& db, Page divergences = {});

}  // namespace tlscope::views
