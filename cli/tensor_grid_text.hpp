// `tlscope tensor`'s renderer: draws a views::TensorGrid as monospace text: cells right-aligned in
// equal columns, one blank column or line per gap unit, separators drawn heavier as the level
// grows (│ ║ ┃, ─ ═ ━). Sharded tensors' cells are tagged with their owners and, in colour, take
// the rank colour of views::rank_color (the nearest xterm colour behind black text).
#pragma once

#include <string>

#include "tlscope/views/tensor_grid.hpp"

namespace tlscope::cli {

struct TensorTextOptions {
  bool color = false;  // ANSI colours per owner set (sharded tensors)
  bool legend = true;  // one line per dim above the grid
};

std::string render_tensor_grid_text(const views::TensorGrid& grid,
                                    const TensorTextOptions& options = {});

// The SGR sequence that colours an owner set's cells: black on the set's rank colour.
std::string owners_sgr(const std::vector<int>& owners);

// Display width of UTF-8 text in terminal columns (one per code point; the box and ellipsis
// characters used here are all single-width).
size_t display_width(const std::string& text);

}  // namespace tlscope::cli
