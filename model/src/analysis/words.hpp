// Small helpers for writing findings in plain words and reading integer lists back; rank sets
// are worded by rank_set.hpp (rank_words), with the job's rank count from job_ranks().
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/model/analysis/rank_set.hpp"
#include "tlscope/model/json_ints.hpp"

namespace tlscope::model::analysis {

// "[0, 1, 2]" -> {0, 1, 2} (JSON integer arrays as SQLite writes them; json_ints.hpp).
inline std::vector<int64_t> int_list(const std::string& text) {
  return json_int_list(text);
}

// How many ranks the job has (distinct files.rank, as the summary counts them): the "of N" of a
// rank set in a finding.
inline std::string job_ranks_query() {
  return "(SELECT DISTINCT rank FROM files WHERE rank IS NOT NULL)";
}

inline std::string ranks_json(std::vector<int64_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  std::string out = "[";
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (i) out += ",";
    out += std::to_string(ranks[i]);
  }
  return out + "]";
}

// The op both sides of a collective must agree on: a point-to-point transfer is one `send` and one
// `recv`, which match each other.
inline std::string matched_op(const std::string& op) {
  return op == "send" || op == "recv" ? "send/recv" : op;
}

}  // namespace tlscope::model::analysis
