// Matrix-of-matrices drawing of a tensor shape (docs/architecture.md): the last dim runs across,
// the second-to-last down, outer dims tile whole blocks alternating across/down with gaps that
// grow with the level. Each cell shows the element's storage offset from the strides, so a
// transposed or broadcast (stride 0) layout is visible at a glance. Large dims keep edge items.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlscope::exporters {

struct TensorGridHtml {
  std::string html;  // absolutely positioned cells inside <div class="tensor-grid">
  int64_t cells = 0;
  bool summarised = false;  // some dims show only their edge items
};

// `size` and `stride` as stored (JSON arrays of ints or symbol strings); symbolic dims are drawn
// with two items and labelled by their symbol.
TensorGridHtml tensor_grid_html(const std::string& size_json, const std::string& stride_json,
                                int64_t storage_offset);

// "[2, s0, 4]" -> {"2", "s0", "4"} (items as text, quotes removed).
std::vector<std::string> json_dims(const std::string& json);

}  // namespace tlscope::exporters
