// Small helpers for writing the facts of findings: integer lists read back and written as JSON,
// and the op two sides of a collective agree on. (Findings are worded in views/.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/model/json_ints.hpp"

namespace tlscope::model::analysis {

// "[0, 1, 2]" -> {0, 1, 2} (JSON integer arrays as SQLite writes them; json_ints.hpp).
inline std::vector<int64_t> int_list(const std::string& text) {
  return json_int_list(text);
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
