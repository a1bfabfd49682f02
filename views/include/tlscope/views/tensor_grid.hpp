// TensorGrid: the matrix-of-matrices layout of an n-D tensor as plain rectangles and labels, in
// grid units (a cell is 1x1). Both the terminal renderer and the GUI draw these structs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/device_mesh.hpp"

namespace tlscope::views {

// Which way a tensor dim runs. For dim k of a rank-n tensor let p = n-1-k: even p runs
// horizontally, odd p vertically, and floor(p/2) is its nesting level.
enum class Direction : uint8_t { kHorizontal, kVertical };

// An index along a dim that stands for the items a summary skipped.
inline constexpr int64_t kEllipsisIndex = -1;

struct TensorGridInput {
  std::vector<int64_t> shape;
  std::vector<std::string> names;  // empty, or one per dim ("" = unnamed)
  std::vector<double> values;      // empty, or numel values in row-major order
  // Without values: label each cell with its row-major flat index (torch.arange), computed per
  // drawn cell so a summarised 10^12-element tensor costs no more than a small one.
  bool flat_index_values = false;
  std::optional<DeviceMesh> mesh;  // set for a sharded tensor
};

// The most dims a grid is laid out for (64 nesting levels over 128 dims would be past any
// screen already). Each level adds a header row and a header column, so the drawing grows with
// the square of the rank: a logged size of 10,000 ones printed 197 MB of text in 3 minutes.
inline constexpr int kMaxGridDims = 64;

struct TensorGridOptions {
  // Like PyTorch's printing: when numel exceeds the threshold, each dim longer than
  // 2*edge_items keeps its first and last edge_items and one ellipsis slot between them.
  int64_t summarize_threshold = 1000;
  int edge_items = 3;
  // If even the summary would draw more cells, edge_items shrinks (down to 1) until it fits.
  int64_t max_cells = 20000;
};

struct GridCell {
  std::vector<int64_t> index;  // one per dim; kEllipsisIndex along summarised level-0 dims
  double x = 0, y = 0, w = 1, h = 1;
  std::string text;         // the value, or "…" / "⋮" / "⋱" for an ellipsis cell
  std::vector<int> owners;  // mesh ranks holding this element (sharded tensors only)
  bool ellipsis = false;
};

enum class LineOrientation : uint8_t { kVertical, kHorizontal };

// A line in the gap between two neighbouring blocks of the dim `dim` (level >= 1): a vertical
// line at x = pos from y = from to y = to, or a horizontal one at y = pos from x = from to x = to.
struct GridSeparator {
  int dim = 0;
  int level = 0;
  LineOrientation orientation = LineOrientation::kVertical;
  double pos = 0, from = 0, to = 0;
};

// The slot where a summary skipped whole blocks of an outer dim (level >= 1).
struct GridEllipsis {
  int dim = 0;
  int level = 0;
  double x = 0, y = 0, w = 0, h = 0;
};

// One tile: a level-L block is what dims of level <= L span. Its cells are
// cells[first_cell, end_cell) because dims of higher level come first in row-major order.
struct GridBlock {
  int level = 0;
  double x = 0, y = 0, w = 0, h = 0;
  size_t first_cell = 0, end_cell = 0;
  std::vector<int> owners;  // the owner set shared by all its cells; empty when they differ
};

// An index label beside the grid: horizontal dims' ticks sit in header rows above it
// (y = -(level+1)), vertical dims' ticks in header columns left of it (x = -(level+1)).
struct GridTick {
  int dim = 0;
  int level = 0;
  Direction direction = Direction::kHorizontal;
  int64_t index = 0;  // kEllipsisIndex for a skipped run
  double x = 0, y = 0, w = 0, h = 0;
  std::string text;
};

// The title of one dim: "dim 1 h [3]" with its direction and level.
struct GridAxis {
  int dim = 0;
  int level = 0;
  Direction direction = Direction::kHorizontal;
  int64_t size = 0;
  std::string name;
  std::string text;
  bool summarized = false;
};

struct TensorGrid {
  std::vector<int64_t> shape;
  double width = 0, height = 0;  // the cell area; labels lie at negative coordinates
  int horizontal_levels = 0;     // header rows above the grid
  int vertical_levels = 0;       // header columns left of the grid
  bool summarized = false;
  int edge_items = 0;  // edge items kept per summarised dim
  int mesh_ranks = 0;  // 0 when not sharded
  std::vector<GridCell> cells;
  std::vector<GridSeparator> separators;
  std::vector<GridEllipsis> ellipses;
  std::vector<GridBlock> blocks;
  std::vector<GridTick> ticks;
  std::vector<GridAxis> axes;
};

struct TensorGridResult {
  std::optional<TensorGrid> grid;
  std::string error;  // why the input was rejected when grid is empty
};

// Gap between neighbouring items of a level-L dim: cells touch, blocks are spaced by their level.
inline double grid_gap(int level) {
  return static_cast<double>(level);
}

TensorGridResult layout_tensor_grid(const TensorGridInput& input,
                                    const TensorGridOptions& options = {});

// "r0" or "r0,2": the tag that names an owner set (the mesh ranks holding a block).
std::string owner_tag(const std::vector<int>& owners);

// "-3", "0.5", "1.235e+06": integers exactly, other values with 4 significant digits.
std::string format_cell_value(double value);

}  // namespace tlscope::views
