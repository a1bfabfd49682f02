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
  // Appended rather than `"d" + std::to_string(k)`, which trips GCC 12's -Wrestrict false
  // positive at -O2.
  std::string label = "d";
  label += std::to_string(k);
  return label;
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

namespace {

// The dims' slots and offsets plus the extent of a block at every level.
struct GridPlan {
  int n = 0;
  int levels = 0;
  std::vector<DimPlan> dims;
  std::vector<int> hdim, vdim;       // the dim at each level and direction, or -1
  std::vector<double> ext_h, ext_v;  // ext[L + 1]: extent of a level-L block; ext[0] = 1 cell
  int edge = 0;                      // 0 when not summarised
};

// Chooses slots: PyTorch-like summary, shrinking the edge until the drawing fits max_cells.
bool plan_slots(const TensorGridInput& input, const TensorGridOptions& options, GridPlan& plan,
                std::string& error) {
  // Zero-size dims do not shrink the decision: a (0, 10^12) tensor still needs a summary of
  // its long dim, or its ticks alone would be 10^12.
  std::vector<int64_t> nonzero;
  for (int64_t s : input.shape) nonzero.push_back(std::max<int64_t>(1, s));
  const int64_t extent = saturating_product(nonzero);
  const bool summarize = extent > options.summarize_threshold || extent > options.max_cells;
  int edge = std::max(1, options.edge_items);
  plan.dims.assign(static_cast<size_t>(plan.n), DimPlan{});
  for (;;) {
    std::vector<int64_t> counts;
    for (int k = 0; k < plan.n; ++k) {
      plan.dims[k].slots = make_slots(input.shape[k], summarize, edge);
      counts.push_back(std::max<int64_t>(1, static_cast<int64_t>(plan.dims[k].slots.size())));
    }
    int64_t drawn = saturating_product(counts);
    if (drawn <= options.max_cells) break;
    if (!summarize || edge == 1) {
      error = "a rank-" + std::to_string(plan.n) + " tensor needs " + std::to_string(drawn) +
              " cells even when summarised (limit " + std::to_string(options.max_cells) + ")";
      return false;
    }
    --edge;
  }
  plan.edge = summarize ? edge : 0;
  return true;
}

// Directions, levels, slot offsets and block extents.
void place_dims(const TensorGridInput& input, GridPlan& plan) {
  const int n = plan.n;
  plan.levels = n == 0 ? 0 : (n - 1) / 2 + 1;
  plan.hdim.assign(static_cast<size_t>(plan.levels), -1);
  plan.vdim.assign(static_cast<size_t>(plan.levels), -1);
  for (int k = 0; k < n; ++k) {
    DimPlan& d = plan.dims[k];
    int p = n - 1 - k;
    d.dim = k;
    d.size = input.shape[k];
    d.direction = p % 2 == 0 ? Direction::kHorizontal : Direction::kVertical;
    d.level = p / 2;
    (d.direction == Direction::kHorizontal ? plan.hdim : plan.vdim)[d.level] = k;
  }
  plan.ext_h.assign(static_cast<size_t>(plan.levels) + 1, 1.0);
  plan.ext_v.assign(static_cast<size_t>(plan.levels) + 1, 1.0);
  for (int L = 0; L < plan.levels; ++L) {
    for (int dir = 0; dir < 2; ++dir) {
      auto& ext = dir == 0 ? plan.ext_h : plan.ext_v;
      int k = (dir == 0 ? plan.hdim : plan.vdim)[L];
      ext[L + 1] = ext[L];
      if (k < 0) continue;
      DimPlan& d = plan.dims[k];
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
}

// Cells, in row-major order of their slot tuples; slots of skipped outer blocks draw nothing.
void emit_cells(const TensorGridInput& input, const GridPlan& plan,
                const std::optional<MeshOwnership>& ownership, TensorGrid& grid) {
  const int n = plan.n;
  const int64_t numel = saturating_product(input.shape);
  if (numel == 0) return;
  std::vector<int64_t> strides(static_cast<size_t>(n), 1);
  // Overflow only happens when numel saturated, and then flat indices are not shown.
  for (int k = n - 2; k >= 0; --k) {
    if (__builtin_mul_overflow(strides[k + 1], std::max<int64_t>(1, input.shape[k + 1]),
                               &strides[k])) {
      strides[k] = 0;
    }
  }
  // Flat indices only when they fit in int64 (numel saturates at INT64_MAX otherwise).
  const bool index_text = input.flat_index_values && numel < std::numeric_limits<int64_t>::max();
  std::vector<size_t> slot(static_cast<size_t>(n), 0);
  for (;;) {
    bool outer_ellipsis = false;
    bool h_ell = false, v_ell = false;
    GridCell cell;
    int64_t flat = 0;
    for (int k = 0; k < n; ++k) {
      const DimPlan& d = plan.dims[k];
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
    while (k >= 0 && ++slot[k] == plan.dims[k].slots.size()) slot[k--] = 0;
    if (k < 0) break;
  }
}

// Blocks: cells sharing the slots of every dim above level L are contiguous (those dims come
// first in row-major order), so each run of equal prefixes is one level-L block.
void emit_blocks(const GridPlan& plan, bool sharded, TensorGrid& grid) {
  for (int L = 0; L < plan.levels; ++L) {
    int outer = 0;  // dims 0..outer-1 have level > L
    while (outer < plan.n && plan.dims[outer].level > L) ++outer;
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
        const DimPlan& d = plan.dims[k];
        size_t j = 0;
        while (d.slots[j] != grid.cells[c].index[k]) ++j;
        (d.direction == Direction::kHorizontal ? b.x : b.y) += d.offsets[j];
      }
      b.w = plan.ext_h[L + 1];
      b.h = plan.ext_v[L + 1];
      b.first_cell = c;
      b.end_cell = e;
      if (sharded) {
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
}

// Separators and skipped-block markers inside every block of level >= 1.
void emit_separators(const GridPlan& plan, TensorGrid& grid) {
  for (const GridBlock& b : grid.blocks) {
    const int L = b.level;
    if (L == 0) continue;
    for (int k : {plan.hdim[L], plan.vdim[L]}) {
      if (k < 0) continue;
      const DimPlan& d = plan.dims[k];
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
}

// Ticks: one header row (column) per horizontal (vertical) level, repeated for every block of
// the outer dims running the same way.
void emit_ticks(const TensorGridInput& input, const GridPlan& plan, TensorGrid& grid) {
  for (int dir = 0; dir < 2; ++dir) {
    const auto& dim_at = dir == 0 ? plan.hdim : plan.vdim;
    for (int L = 0; L < plan.levels; ++L) {
      int k = dim_at[L];
      if (k < 0) continue;
      // Origins: every combination of kept slots of the same-direction dims above level L.
      std::vector<double> origins{0.0};
      for (int M = plan.levels - 1; M > L; --M) {
        int outer_k = dim_at[M];
        if (outer_k < 0) continue;
        std::vector<double> next;
        for (double o : origins) {
          const DimPlan& od = plan.dims[outer_k];
          for (size_t j = 0; j < od.slots.size(); ++j) {
            if (od.slots[j] != kEllipsisIndex) next.push_back(o + od.offsets[j]);
          }
        }
        origins.swap(next);
      }
      const DimPlan& d = plan.dims[k];
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
}

void emit_axes(const TensorGridInput& input, const GridPlan& plan, TensorGrid& grid) {
  for (int k = 0; k < plan.n; ++k) {
    const DimPlan& d = plan.dims[k];
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
}

}  // namespace

TensorGridResult layout_tensor_grid(const TensorGridInput& input,
                                    const TensorGridOptions& options) {
  TensorGridResult result;
  if (input.shape.size() > static_cast<size_t>(kMaxGridDims)) {
    result.error = "a rank-" + std::to_string(input.shape.size()) +
                   " tensor has more dims than a grid is drawn for (" +
                   std::to_string(kMaxGridDims) + ")";
    return result;
  }
  const int n = static_cast<int>(input.shape.size());
  for (int k = 0; k < n; ++k) {
    if (input.shape[k] < 0) {
      result.error =
          "dim " + std::to_string(k) + " has negative size " + std::to_string(input.shape[k]);
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
    Result<MeshOwnership> built = MeshOwnership::build(*input.mesh, input.shape);
    if (!built.ok()) {
      result.error = std::move(built.error);
      return result;
    }
    ownership = std::move(built.value);
  }
  GridPlan plan;
  plan.n = n;
  if (!plan_slots(input, options, plan, result.error)) return result;
  place_dims(input, plan);

  TensorGrid grid;
  grid.shape = input.shape;
  grid.edge_items = plan.edge;
  grid.mesh_ranks = ownership ? ownership->rank_count() : 0;
  grid.width = plan.ext_h[static_cast<size_t>(plan.levels)];
  grid.height = plan.ext_v[static_cast<size_t>(plan.levels)];
  for (int L = 0; L < plan.levels; ++L) {
    grid.horizontal_levels += plan.hdim[L] >= 0;
    grid.vertical_levels += plan.vdim[L] >= 0;
  }
  for (const DimPlan& d : plan.dims) {
    if (d.slots.size() < static_cast<size_t>(d.size)) grid.summarized = true;
  }
  emit_cells(input, plan, ownership, grid);
  emit_blocks(plan, ownership.has_value(), grid);
  emit_separators(plan, grid);
  emit_ticks(input, plan, grid);
  emit_axes(input, plan, grid);
  result.grid = std::move(grid);
  return result;
}

std::string owner_tag(const std::vector<int>& owners) {
  std::string s = "r";
  for (size_t i = 0; i < owners.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(owners[i]);
  }
  return s;
}

}  // namespace tlscope::views
