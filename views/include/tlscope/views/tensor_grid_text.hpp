// Draws a TensorGrid as monospace text: cells right-aligned in equal columns, one blank column
// or line per gap unit, separators drawn heavier as the level grows (│ ║ ┃, ─ ═ ━).
#pragma once

#include <string>

#include "tlscope/views/tensor_grid.hpp"

namespace tlscope::views {

struct TensorTextOptions {
  bool color = false;  // ANSI colours per owner set (sharded tensors)
  bool legend = true;  // one line per dim above the grid
};

std::string render_tensor_grid_text(const TensorGrid& grid, const TensorTextOptions& options = {});

// "r0" or "r0,2": the tag of an owner set.
std::string owner_tag(const std::vector<int>& owners);

// Display width of UTF-8 text in terminal columns (one per code point; the box and ellipsis
// characters used here are all single-width).
size_t display_width(const std::string& text);

}  // namespace tlscope::views
