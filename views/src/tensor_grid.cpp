// The matrix-of-matrices layout: dims alternate horizontal/vertical from the innermost out, each
// pair of dims one nesting level deeper, with gaps that widen with the level.
#include "tlscope/views/tensor_grid.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace tlscope::views {
namespace {

// How one tensor dim is drawn: its slots (kept indices and at most one ellipsis) and the offset
// of each slot from the start of the enclosing block, along the dim's direction.
struct DimPlan {
  int dim = 0;
  int64_t size = 0;
  Direction direction = Direction::kHorizontal;
  int level = 0;
  std::vector<int64_t> slots;
  std::vector<double> offsets;
  std::vector<double> extents;  // of each slot
};

int64_t saturating_product(const std::vector<int64_t>& sizes) {
  int64_t p = 1;
  for (int64_t s : sizes) {
    if (s == 0) return 0;
    if (p > std::numeric_limits<int64_t>::max() / s) return std::numeric_limits<int64_t>::max();
    p *= s;
  }
  return p;
}

std::vector<int64_t> make_slots(int64_t size, bool summarize, int edge) {
  std::vector<int64_t> slots;
  if (summarize && size > 2 * static_cast<int64_t>(edge)) {
    for (int64_t i = 0; i < edge; ++i) slots.push_back(i);
    slots.push_back(kEllipsisIndex);
    for (int64_t i = size - edge; i < size; ++i) slots.push_back(i);
  } else {
    for (int64_t i = 0; i < size; ++i) slots.push_back(i);
  }
  return slots;
}

std::string dim_label(const TensorGridInput& input, int k) {
  if (k < static_cast<int>(input.names.size()) && !input.names[k].empty()) return input.names[k];
  return "d" + std::to_string(k);
}

}  // namespace

std::string format_cell_value(double value) {
  char buf[32];
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(value));
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", value);
  }
  return buf;
}

TensorGridResult layout_tensor_grid(const TensorGridInput& input,
                                    const TensorGridOptions& options) {
  TensorGridResult result;
  const int n = static_cast<int>(input.shape.size());
  for (int k = 0; k < n; ++k) {
    if (input.shape[k] < 0) {
      result.error = "dim " + std::to_string(k) + " has negative size " +
                     std::to_string(input.shape[k]);
      return result;
    }
  }
  if (!input.names.empty() && static_cast<int>(input.names.size()) != n) {
    result.error = std::to_string(input.names.size()) + " dim names given for a rank-" +
                   std::to_string(n) + " tensor";
    return result;
  }
  const int64_t numel = saturating_product(input.shape);
  if (!input.values.empty() && static_cast<int64_t>(input.values.size()) != numel) {
    result.error = std::to_string(input.values.size()) + " values given for a tensor of " +
                   std::to_string(numel) + " elements";
    return result;
  }
  std::optional<MeshOwnership> ownership;
  if (input.mesh) {
    std::string why;
    ownership = MeshOwnership::build(*input.mesh, input.shape, &why);
    if (!ownership) {
      result.error = why;
      return result;
    }
  }

  // Summarise like PyTorch; shrink the edge until the drawing fits max_cells.
  bool summarize = numel > options.summarize_threshold || numel > options.max_cells;
  int edge = std::max(1, options.edge_items);
  std::vector<DimPlan> dims(n);
  for (;;) {
    std::vector<int64_t> counts;
    for (int k = 0; k < n; ++k) {
      dims[k].slots = make_slots(input.shape[k], summarize, edge);
      counts.push_back(static_cast<int64_t>(dims[k].slots.size()));
    }
    int64_t drawn = saturating_product(counts);
    if (drawn <= options.max_cells) break;
    if (!summarize || edge == 1) {
      result.error = "a rank-" + std::to_string(n) + " tensor needs " + std::to_string(drawn) +
                     " cells even when summarised (limit " + std::to_string(options.max_cells) +
                     ")";
      return result;
    }
    --edge;
  }

  TensorGrid grid;
  grid.shape = input.shape;
  grid.edge_items = summarize ? edge : 0;
  grid.mesh_ranks = ownership ? ownership->rank_count() : 0;

  // Per level and direction: the dim there (or -1), and the extent of a block of that level.
  const int levels = n == 0 ? 0 : (n - 1) / 2 + 1;
  std::vector<int> hdim(levels, -1), vdim(levels, -1);
  for (int k = 0; k < n; ++k) {
    DimPlan& d = dims[k];
    int p = n - 1 - k;
    d.dim = k;
    d.size = input.shape[k];
    d.direction = p % 2 == 0 ? Direction::kHorizontal : Direction::kVertical;
    d.level = p / 2;
    (d.direction == Direction::kHorizontal ? hdim : vdim)[d.level] = k;
    if (d.slots.size() < static_cast<size_t>(d.size)) grid.summarized = true;
  }
  // ext[L + 1] is the extent of a level-L block; ext[0] = 1 is a single cell.
  std::vector<double> ext_h(levels + 1, 1.0), ext_v(levels + 1, 1.0);
  for (int L = 0; L < levels; ++L) {
    for (int dir = 0; dir < 2; ++dir) {
      auto& ext = dir == 0 ? ext_h : ext_v;
      int k = (dir == 0 ? hdim : vdim)[L];
      ext[L + 1] = ext[L];
      if (k < 0) continue;
      DimPlan& d = dims[k];
      double pos = 0;
      for (size_t j = 0; j < d.slots.size(); ++j) {
        if (j > 0) pos += grid_gap(L);
        d.offsets.push_back(pos);
        d.extents.push_back(d.slots[j] == kEllipsisIndex ? 1.0 : ext[L]);
        pos += d.extents.back();
      }
      ext[L + 1] = pos;
    }
  }
  grid.width = ext_h[levels];
  grid.height = ext_v[levels];
  for (int L = 0; L < levels; ++L) {
    grid.horizontal_levels += hdim[L] >= 0;
    grid.vertical_levels += vdim[L] >= 0;
  }

  // Cells, in row-major order of their slot tuples.
  std::vector<int64_t> strides(n, 1);
  // Overflow only happens when numel saturated, and then flat indices are not shown.
  for (int k = n - 2; k >= 0; --k) {
    if (__builtin_mul_overflow(strides[k + 1], std::max<int64_t>(1, input.shape[k + 1]), &strides[k])) {
      strides[k] = 0;
    }
  }
  const bool empty = numel == 0;
  // Flat indices only when they fit in int64 (numel saturates at INT64_MAX otherwise).
  const bool index_text = input.flat_index_values && numel < std::numeric_limits<int64_t>::max();
  std::vector<size_t> slot(n, 0);
  while (!empty) {
    bool outer_ellipsis = false;
    bool h_ell = false, v_ell = false;
    GridCell cell;
    cell.x = cell.y = 0;
    int64_t flat = 0;
    for (int k = 0; k < n; ++k) {
      const DimPlan& d = dims[k];
      int64_t idx = d.slots[slot[k]];
      cell.index.push_back(idx);
      (d.direction == Direction::kHorizontal ? cell.x : cell.y) += d.offsets[slot[k]];
      if (idx == kEllipsisIndex) {
        if (d.level > 0) outer_ellipsis = true;
        (d.direction == Direction::kHorizontal ? h_ell : v_ell) = true;
      } else if (index_text || !input.values.empty()) {
        flat += idx * strides[k];  // < numel < INT64_MAX whenever it is used
      }
    }
    if (!outer_ellipsis) {
      cell.ellipsis = h_ell || v_ell;
      if (cell.ellipsis) {
        cell.text = h_ell && v_ell ? "\u22f1" : h_ell ? "\u2026" : "\u22ee";
      } else {
        if (!input.values.empty()) {
          cell.text = format_cell_value(input.values[flat]);
        } else if (index_text) {
          cell.text = std::to_string(flat);
        }
        if (ownership) cell.owners = ownership->owners(cell.index);
      }
      grid.cells.push_back(std::move(cell));
    }
    // Odometer step, innermost dim fastest.
    int k = n - 1;
    while (k >= 0 && ++slot[k] == dims[k].slots.size()) slot[k--] = 0;
    if (k < 0) break;
  }

  // Blocks: cells sharing the slots of every dim above level L are contiguous (those dims come
  // first in row-major order), so each run of equal prefixes is one level-L block.
  for (int L = 0; L < levels; ++L) {
    int outer = 0;  // dims 0..outer-1 have level > L
    while (outer < n && dims[outer].level > L) ++outer;
    size_t c = 0;
    while (c < grid.cells.size()) {
      size_t e = c + 1;
      auto same_prefix = [&](size_t a, size_t b) {
        for (int k = 0; k < outer; ++k) {
          if (grid.cells[a].index[k] != grid.cells[b].index[k]) return false;
        }
        return true;
      };
      while (e < grid.cells.size() && same_prefix(c, e)) ++e;
      GridBlock b;
      b.level = L;
      for (int k = 0; k < outer; ++k) {
        const DimPlan& d = dims[k];
        size_t j = 0;
        while (d.slots[j] != grid.cells[c].index[k]) ++j;
        (d.direction == Direction::kHorizontal ? b.x : b.y) += d.offsets[j];
      }
      b.w = ext_h[L + 1];
      b.h = ext_v[L + 1];
      b.first_cell = c;
      b.end_cell = e;
      if (ownership) {
        const std::vector<int>* shared = nullptr;
        bool uniform = true;
        for (size_t i = c; i < e && uniform; ++i) {
          if (grid.cells[i].ellipsis) continue;
          if (!shared) shared = &grid.cells[i].owners;
          uniform = grid.cells[i].owners == *shared;
        }
        if (uniform && shared) b.owners = *shared;
      }
      grid.blocks.push_back(std::move(b));
      c = e;
    }
  }

  // Separators and skipped-block markers inside every block of level >= 1.
  for (const GridBlock& b : grid.blocks) {
    const int L = b.level;
    if (L == 0) continue;
    for (int k : {hdim[L], vdim[L]}) {
      if (k < 0) continue;
      const DimPlan& d = dims[k];
      const bool horiz = d.direction == Direction::kHorizontal;
      const double origin = horiz ? b.x : b.y;
      const double across0 = horiz ? b.y : b.x;
      const double across1 = horiz ? b.y + b.h : b.x + b.w;
      for (size_t j = 0; j < d.slots.size(); ++j) {
        if (j > 0) {
          GridSeparator s;
          s.dim = k;
          s.level = L;
          s.orientation = horiz ? LineOrientation::kVertical : LineOrientation::kHorizontal;
          s.pos = origin + d.offsets[j] - grid_gap(L) / 2;
          s.from = across0;
          s.to = across1;
          grid.separators.push_back(s);
        }
        if (d.slots[j] == kEllipsisIndex) {
          GridEllipsis e;
          e.dim = k;
          e.level = L;
          if (horiz) {
            e = {k, L, origin + d.offsets[j], b.y, 1.0, b.h};
          } else {
            e = {k, L, b.x, origin + d.offsets[j], b.w, 1.0};
          }
          grid.ellipses.push_back(e);
        }
      }
    }
  }

  // Ticks: one header row (column) per horizontal (vertical) level, repeated for every block of
  // the outer dims running the same way.
  for (int dir = 0; dir < 2; ++dir) {
    const auto& dim_at = dir == 0 ? hdim : vdim;
    for (int L = 0; L < levels; ++L) {
      int k = dim_at[L];
      if (k < 0) continue;
      // Origins: every combination of kept slots of the same-direction dims above level L.
      std::vector<double> origins{0.0};
      for (int M = levels - 1; M > L; --M) {
        int outer_k = dim_at[M];
        if (outer_k < 0) continue;
        std::vector<double> next;
        for (double o : origins) {
          const DimPlan& od = dims[outer_k];
          for (size_t j = 0; j < od.slots.size(); ++j) {
            if (od.slots[j] != kEllipsisIndex) next.push_back(o + od.offsets[j]);
          }
        }
        origins.swap(next);
      }
      const DimPlan& d = dims[k];
      for (double o : origins) {
        for (size_t j = 0; j < d.slots.size(); ++j) {
          GridTick t;
          t.dim = k;
          t.level = L;
          t.direction = d.direction;
          t.index = d.slots[j];
          if (t.index == kEllipsisIndex) {
            t.text = "\u2026";
          } else if (L == 0) {
            t.text = std::to_string(t.index);
          } else {
            t.text = dim_label(input, k) + "=" + std::to_string(t.index);
          }
          if (dir == 0) {
            t.x = o + d.offsets[j];
            t.w = d.extents[j];
            t.y = -(L + 1);
            t.h = 1;
          } else {
            t.y = o + d.offsets[j];
            t.h = d.extents[j];
            t.x = -(L + 1);
            t.w = 1;
          }
          grid.ticks.push_back(std::move(t));
        }
      }
    }
  }

  for (int k = 0; k < n; ++k) {
    const DimPlan& d = dims[k];
    GridAxis a;
    a.dim = k;
    a.level = d.level;
    a.direction = d.direction;
    a.size = d.size;
    a.name = k < static_cast<int>(input.names.size()) ? input.names[k] : "";
    a.summarized = d.slots.size() < static_cast<size_t>(d.size);
    a.text = "dim " + std::to_string(k) + (a.name.empty() ? "" : " " + a.name) + " [" +
             std::to_string(d.size) + "]";
    grid.axes.push_back(std::move(a));
  }
  result.grid = std::move(grid);
  return result;
}

}  // namespace tlscope::views
