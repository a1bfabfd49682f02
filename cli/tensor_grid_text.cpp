// Monospace rendering of TensorGrid. Grid units map to characters piecewise: a unit holding cells
// is as wide as the widest cell text, a gap unit is two characters, so gaps stay narrow while the
// cell columns line up exactly as in the grid.
#include "tensor_grid_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "tlscope/views/rank_colors.hpp"

namespace tlscope::cli {

using namespace views;

namespace {

constexpr int kGapChars = 2;

struct Glyph {
  std::string text = " ";
  int line_level = 0;  // > 0 when a separator passes here
  bool horizontal = false;
  std::string color;  // ANSI prefix for this glyph, reset after it
};

const char* line_char(int level, bool horizontal) {
  if (level <= 1) return horizontal ? "\u2500" : "\u2502";
  if (level == 2) return horizontal ? "\u2550" : "\u2551";
  return horizontal ? "\u2501" : "\u2503";
}

const char* cross_char(int level) {
  if (level <= 1) return "\u253c";
  if (level == 2) return "\u256c";
  return "\u254b";
}

// Piecewise map from grid units to character offsets along one axis.
struct AxisMap {
  int first_unit = 0;
  std::vector<int> start;  // character offset of each unit, plus the end
  int chars(double pos) const {
    double rel = pos - first_unit;
    if (rel <= 0) return 0;
    size_t u = static_cast<size_t>(std::floor(rel));
    if (u + 1 >= start.size()) return start.back();
    double frac = rel - static_cast<double>(u);
    return start[u] + static_cast<int>(std::floor(frac * (start[u + 1] - start[u])));
  }
};

AxisMap make_axis(int first_unit, int end_unit, const std::vector<int>& unit_width) {
  AxisMap m;
  m.first_unit = first_unit;
  int off = 0;
  for (int u = first_unit; u < end_unit; ++u) {
    m.start.push_back(off);
    off += unit_width[static_cast<size_t>(u - first_unit)];
  }
  m.start.push_back(off);
  return m;
}

std::vector<std::string> split_glyphs(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    size_t len = 1;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0xf0)
      len = 4;
    else if (c >= 0xe0)
      len = 3;
    else if (c >= 0xc0)
      len = 2;
    out.push_back(s.substr(i, std::min(len, s.size() - i)));
    i += len;
  }
  return out;
}

}  // namespace

size_t display_width(const std::string& text) {
  size_t w = 0;
  for (unsigned char c : text) w += (c & 0xc0) != 0x80;
  return w;
}

std::string owners_sgr(const std::vector<int>& owners) {
  return "\x1b[30;48;5;" + std::to_string(nearest_xterm_color(owners_color(owners))) + "m";
}

std::string render_tensor_grid_text(const TensorGrid& grid, const TensorTextOptions& options) {
  std::string out;
  if (options.legend) {
    for (const GridAxis& a : grid.axes) {
      const bool across = a.direction == Direction::kHorizontal;
      out += a.text;
      out += across ? ": across" : ": down";
      if (a.level == 0) {
        out += across ? " (columns)" : " (rows)";
      } else {
        out += ", tiles level-" + std::to_string(a.level - 1) + " blocks";
      }
      if (a.summarized) out += ", summarised";
      out += '\n';
    }
    if (grid.axes.empty()) out += "scalar (0-D)\n";
    if (grid.summarized) {
      out += "summarised: " + std::to_string(grid.edge_items) + " edge items kept per long dim\n";
    }
  }

  // Cell texts, with owner tags for sharded tensors.
  std::vector<std::string> texts;
  std::map<std::vector<int>, size_t> set_order;
  for (const GridCell& c : grid.cells) {
    std::string t = c.text;
    if (grid.mesh_ranks > 0 && !c.ellipsis) {
      std::string tag = owner_tag(c.owners);
      t = t.empty() ? tag : t + ":" + tag;
      set_order.emplace(c.owners, set_order.size());
    }
    texts.push_back(t);
  }
  size_t cw = 1;
  for (const auto& t : texts) cw = std::max(cw, display_width(t));
  for (const GridTick& t : grid.ticks) {
    if (t.direction == Direction::kHorizontal && t.level == 0)
      cw = std::max(cw, display_width(t.text));
  }
  cw += 1;  // a space between neighbouring cells
  std::vector<size_t> tick_col(static_cast<size_t>(grid.vertical_levels), 1);
  for (const GridTick& t : grid.ticks) {
    if (t.direction == Direction::kVertical) {
      auto& w = tick_col[static_cast<size_t>(t.level)];
      w = std::max(w, display_width(t.text) + 1);
    }
  }

  // Which units hold content (cells, skipped-block markers) and which are gaps.
  const int x0 = -grid.vertical_levels, x1 = static_cast<int>(std::ceil(grid.width));
  const int y0 = -grid.horizontal_levels, y1 = static_cast<int>(std::ceil(grid.height));
  std::vector<char> xcontent(static_cast<size_t>(x1 - x0), 0);
  auto mark = [](std::vector<char>& v, int first, double from, double len) {
    for (int u = static_cast<int>(from); u < static_cast<int>(from + len); ++u) {
      if (u - first >= 0 && u - first < static_cast<int>(v.size()))
        v[static_cast<size_t>(u - first)] = 1;
    }
  };
  for (const GridCell& c : grid.cells) {
    mark(xcontent, x0, c.x, c.w);
  }
  for (const GridEllipsis& e : grid.ellipses) {
    mark(xcontent, x0, e.x, e.w);
  }
  // A column's index labels need its width even with no cells under them: a (0, 10^6) tensor
  // drew "0 1 2 … 999997 999998 999999" into 2-character gap units, one over the other
  // ("0 19999999999").
  for (const GridTick& t : grid.ticks) {
    if (t.direction == Direction::kHorizontal && t.level == 0) mark(xcontent, x0, t.x, t.w);
  }
  std::vector<int> xw, yw;
  for (int u = x0; u < x1; ++u) {
    if (u < 0)
      xw.push_back(static_cast<int>(tick_col[static_cast<size_t>(-u - 1)]));
    else
      xw.push_back(xcontent[static_cast<size_t>(u - x0)] ? static_cast<int>(cw) : kGapChars);
  }
  // Vertically every unit, content or gap, is one line: a level-L gap is L blank lines.
  for (int u = y0; u < y1; ++u) yw.push_back(1);
  const AxisMap xm = make_axis(x0, x1, xw), ym = make_axis(y0, y1, yw);

  const int cols = xm.start.back(), rows = ym.start.back();
  std::vector<std::vector<Glyph>> canvas(static_cast<size_t>(rows),
                                         std::vector<Glyph>(static_cast<size_t>(cols)));
  auto put = [&](int row, int col, const std::string& text, const std::string& color) {
    int i = 0;
    for (const auto& g : split_glyphs(text)) {
      int c = col + i++;
      if (row < 0 || row >= rows || c < 0 || c >= cols) continue;
      canvas[static_cast<size_t>(row)][static_cast<size_t>(c)].text = g;
      canvas[static_cast<size_t>(row)][static_cast<size_t>(c)].color = color;
    }
  };
  auto right_aligned = [&](double x, double w, double y, const std::string& text,
                           const std::string& color) {
    int right = xm.chars(x + w);
    put(ym.chars(y), right - static_cast<int>(display_width(text)), text, color);
  };

  for (const GridSeparator& s : grid.separators) {
    bool horiz = s.orientation == LineOrientation::kHorizontal;
    int at = horiz ? ym.chars(s.pos) : xm.chars(s.pos);
    int from = horiz ? xm.chars(s.from) : ym.chars(s.from);
    int to = horiz ? xm.chars(s.to) : ym.chars(s.to);
    for (int i = from; i < to; ++i) {
      int row = horiz ? at : i, col = horiz ? i : at;
      if (row < 0 || row >= rows || col < 0 || col >= cols) continue;
      Glyph& g = canvas[static_cast<size_t>(row)][static_cast<size_t>(col)];
      if (g.line_level > 0 && g.horizontal != horiz) {
        int level = std::max(g.line_level, s.level);
        g.text = g.line_level == s.level
                     ? cross_char(level)
                     : line_char(level, g.line_level > s.level ? g.horizontal : horiz);
        g.line_level = level;
        g.horizontal = g.line_level > s.level ? g.horizontal : horiz;
      } else {
        g.text = line_char(s.level, horiz);
        g.line_level = s.level;
        g.horizontal = horiz;
      }
    }
  }
  for (size_t i = 0; i < grid.cells.size(); ++i) {
    const GridCell& c = grid.cells[i];
    std::string color;
    if (options.color && grid.mesh_ranks > 0 && !c.ellipsis) {
      color = owners_sgr(c.owners);
    }
    right_aligned(c.x, c.w, c.y, texts[i], color);
  }
  for (const GridEllipsis& e : grid.ellipses) {
    double mid_y = e.y + std::floor((e.h - 1) / 2);
    double mid_x = e.x + std::floor((e.w - 1) / 2);
    right_aligned(mid_x, 1, mid_y, e.w == 1 ? "\u2026" : "\u22ee", "");
  }
  for (const GridTick& t : grid.ticks) {
    if (t.direction == Direction::kHorizontal && t.level == 0) {
      right_aligned(t.x, t.w, t.y, t.text, "");
    } else if (t.direction == Direction::kHorizontal) {
      // Centre an outer tick over its block.
      int left = xm.chars(t.x), right = xm.chars(t.x + t.w);
      int width = static_cast<int>(display_width(t.text));
      put(ym.chars(t.y), left + std::max(0, (right - left - width) / 2), t.text, "");
    } else {
      right_aligned(t.x, t.w, t.y, t.text, "");
    }
  }

  for (const auto& row : canvas) {
    std::string line;
    for (const Glyph& g : row) {
      if (g.color.empty()) {
        line += g.text;
      } else {
        line += g.color + g.text + "\x1b[0m";
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  if (grid.mesh_ranks > 0 && options.legend) {
    out += "owners (mesh of " + std::to_string(grid.mesh_ranks) + " ranks):";
    std::vector<std::pair<size_t, std::vector<int>>> sets;
    for (const auto& [owners, idx] : set_order) sets.emplace_back(idx, owners);
    std::sort(sets.begin(), sets.end());
    for (const auto& [idx, owners] : sets) {
      std::string tag = owner_tag(owners);
      if (options.color) tag = owners_sgr(owners) + tag + "\x1b[0m";
      out += " " + tag;
    }
    out += "\n";
  }
  return out;
}

}  // namespace tlscope::cli
