// A line diff of two texts (a graph before and after a compiler pass): which lines stayed, which
// went and which came. The analysis counts its lines into vllm_post_grad_passes; views/ shows it.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace tlscope::model::analysis {

struct DiffLine {
  char op = ' ';  // ' ' kept, '-' only in the old text, '+' only in the new one
  std::string_view text;
  size_t old_line = 0;  // 1-based; 0 for an added line
  size_t new_line = 0;  // 1-based; 0 for a removed line
};

// Every line of both texts, in order, as kept, removed or added: a longest common subsequence
// of the lines between the common head and tail. Past `max_cells` (the product of the two
// middles' line counts) the middle is shown as all removed then all added, so a huge graph
// costs linear time and memory instead of quadratic. The views point into `before` / `after`.
std::vector<DiffLine> line_diff(std::string_view before, std::string_view after,
                                size_t max_cells = size_t{4} << 20);

struct DiffCounts {
  size_t added = 0, removed = 0;
};
DiffCounts count_changes(const std::vector<DiffLine>& diff);

}  // namespace tlscope::model::analysis
