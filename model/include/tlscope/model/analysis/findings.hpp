// Findings: the plain-words conclusions of every analysis (graph breaks, recompiles, failures,
// cache limits, rank divergence, collective desync / missing / straggler), one row each.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::model::analysis {

struct Finding {
  int64_t id = 0;
  std::string kind;      // graph_break, recompile, compile_failure, cache_limit, recompile_storm,
                         // rank_divergence, desync, missing_collective, straggler, bad_record
  std::string severity;  // error, warning, info
  std::vector<int64_t> ranks, other_ranks;
  std::optional<std::string> pg_name, pg_desc;
  std::optional<int64_t> seq;
  std::optional<std::string> compile_id, frame;
  std::string message;
  std::string detail_json;
};

std::vector<Finding> load_findings(sqlite3* db);

// Every finding as a line of plain words, grouped by kind, for `tlscope summary`.
std::string findings_text(sqlite3* db);

}  // namespace tlscope::model::analysis
