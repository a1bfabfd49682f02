// HTML drawing of a views::TensorGrid (the matrix-of-matrices layout): positioned cells, index
// ticks, separators between blocks, ellipses for summarised runs and, for a sharded tensor, the
// mesh rank owning each cell as its colour (views::rank_color).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/tensor_grid.hpp"

namespace tlscope::exporters {

// `cell_text` overrides the grid's own cell text when non-empty (one entry per grid cell).
std::string tensor_grid_html(const views::TensorGrid& grid,
                             const std::vector<std::string>& cell_text = {});

// A values view of a views::TensorGrid laid out from `values` (row-major over `shape`): wider
// cells with the numbers; each cell carries data-idx, data-v (full precision) and, when sharded,
// data-owners; within each innermost matrix the cells of one owner set get an outlined box tagged
// with the mesh ranks ("r0,2"). NaN values (no rank supplied them) show as "?".
std::string tensor_values_grid_html(const views::TensorGrid& grid,
                                    const std::vector<double>& values,
                                    const std::vector<int64_t>& shape);

}  // namespace tlscope::exporters
