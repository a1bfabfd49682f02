// HTML drawing of a views::TensorGrid (the matrix-of-matrices layout): positioned cells, index
// ticks, separators between blocks, ellipses for summarised runs and, for a sharded tensor, the
// mesh rank owning each cell as its colour.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/tensor_grid.hpp"

namespace tlscope::exporters {

// `cell_text` overrides the grid's own cell text when non-empty (one entry per grid cell).
std::string tensor_grid_html(const views::TensorGrid& grid,
                             const std::vector<std::string>& cell_text = {});

// Storage offset of every grid cell (ellipsis cells get ""), from strides and an offset;
// strides that are not plain integers give "".
std::vector<std::string> storage_offsets(const views::TensorGrid& grid,
                                         const std::vector<std::string>& strides,
                                         int64_t storage_offset);

// "[2, s0, 4]" -> {"2", "s0", "4"} (items as text, quotes removed).
std::vector<std::string> json_dims(const std::string& json);

}  // namespace tlscope::exporters
