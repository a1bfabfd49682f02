// Line diff by longest common subsequence over the middle that differs (see line_diff.hpp).
#include "tlscope/model/analysis/line_diff.hpp"

#include <algorithm>
#include <cstdint>

namespace tlscope::model::analysis {

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  if (text.empty()) return lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

}  // namespace

std::vector<DiffLine> line_diff(std::string_view before, std::string_view after, size_t max_cells) {
  const std::vector<std::string_view> a = split_lines(before), b = split_lines(after);
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
    ++tail;
  std::vector<DiffLine> out;
  out.reserve(a.size() + b.size());
  for (size_t i = 0; i < head; ++i) out.push_back({' ', a[i], i + 1, i + 1});
  const size_t n = a.size() - head - tail, m = b.size() - head - tail;
  if (n > 0 && m > 0 && n * m <= max_cells) {
    // lcs[i][j]: the LCS length of a-middle[i..] and b-middle[j..], row-major (n+1) x (m+1).
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        at(i, j) = a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1
                                              : std::max(at(i + 1, j), at(i, j + 1));
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[head + i] == b[head + j]) {
        out.push_back({' ', a[head + i], head + i + 1, head + j + 1});
        ++i, ++j;
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        // On a tie the old line goes first: a change reads as removed, then added.
        out.push_back({'-', a[head + i], head + i + 1, 0});
        ++i;
      } else {
        out.push_back({'+', b[head + j], 0, head + j + 1});
        ++j;
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) out.push_back({'-', a[head + i], head + i + 1, 0});
    for (size_t j = 0; j < m; ++j) out.push_back({'+', b[head + j], 0, head + j + 1});
  }
  for (size_t k = 0; k < tail; ++k)
    out.push_back({' ', a[head + n + k], head + n + k + 1, head + m + k + 1});
  return out;
}

DiffCounts count_changes(const std::vector<DiffLine>& diff) {
  DiffCounts c;
  for (const DiffLine& d : diff) {
    if (d.op == '+') ++c.added;
    if (d.op == '-') ++c.removed;
  }
  return c;
}

}  // namespace tlscope::model::analysis
