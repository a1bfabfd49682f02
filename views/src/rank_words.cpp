// Rank sets as runs with a count (rank_words.hpp).
#include "tlscope/views/rank_words.hpp"

#include <algorithm>
#include <cstdlib>

#include "tlscope/model/json_ints.hpp"

namespace tlscope::views {

std::string grouped_number(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  if (n < 0) out.insert(out.begin(), '-');
  return out;
}

std::string rank_runs(std::vector<int64_t> ranks, size_t max_runs) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (int64_t r : ranks) {
    if (!runs.empty() && r == runs.back().second + 1)
      runs.back().second = r;
    else
      runs.emplace_back(r, r);
  }
  auto text = [](const std::pair<int64_t, int64_t>& r) {
    return r.first == r.second ? std::to_string(r.first)
                               : std::to_string(r.first) + "-" + std::to_string(r.second);
  };
  // Past max_runs the middle runs become "...": the first max_runs - 1 and the last are kept.
  const size_t head = runs.size() > max_runs && max_runs > 1 ? max_runs - 1 : runs.size();
  std::string out;
  for (size_t i = 0; i < head; ++i) out += (i ? ", " : "") + text(runs[i]);
  if (head < runs.size()) out += ", ..., " + text(runs.back());
  return out;
}

std::string rank_words(const std::vector<int64_t>& ranks, int64_t job_ranks) {
  std::vector<int64_t> set = ranks;
  std::sort(set.begin(), set.end());
  set.erase(std::unique(set.begin(), set.end()), set.end());
  if (set.empty()) return "no rank";
  if (set.size() == 1) return "rank " + std::to_string(set[0]);
  const int64_t n = static_cast<int64_t>(set.size());
  std::string count;
  if (job_ranks <= 0 || job_ranks < n)
    count = grouped_number(n) + " ranks";
  else if (n == job_ranks)
    count = "all " + grouped_number(n);
  else
    count = grouped_number(n) + " of " + grouped_number(job_ranks);
  std::string out = "ranks ";
  out += rank_runs(std::move(set));
  out += " (" + count + ")";
  return out;
}

std::vector<int64_t> ranks_from_json(std::string_view json) {
  return model::json_int_list(json);
}

}  // namespace tlscope::views
