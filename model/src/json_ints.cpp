// The one reader of JSON integer arrays (json_ints.hpp).
#include "tlscope/model/json_ints.hpp"

namespace tlscope::model {

std::vector<int64_t> json_int_list(std::string_view json) {
  std::vector<int64_t> out;
  const size_t n = json.size();
  auto digit = [&](size_t i) { return i < n && json[i] >= '0' && json[i] <= '9'; };
  for (size_t i = 0; i < n;) {
    const bool negative = json[i] == '-' && digit(i + 1);
    if (!negative && !digit(i)) {
      ++i;
      continue;
    }
    if (negative) ++i;
    // Unsigned arithmetic: an out-of-range value wraps instead of overflowing a signed type.
    uint64_t value = 0;
    while (digit(i)) value = value * 10 + static_cast<uint64_t>(json[i++] - '0');
    out.push_back(static_cast<int64_t>(negative ? 0 - value : value));
  }
  return out;
}

}  // namespace tlscope::model
