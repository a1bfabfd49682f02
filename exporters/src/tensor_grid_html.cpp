// Renders views::TensorGrid as absolutely positioned HTML elements (no script needed).
#include "tensor_grid_html.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/rank_colors.hpp"

namespace tlscope::exporters {

namespace {

constexpr double kCellW = 46, kCellH = 20;

// What snprintf("%.0fpx") writes, without printf's float formatting (a grid places thousands
// of boxes): printf rounds to the nearest integer, ties to even, as nearbyint does in the default
// rounding mode; "-0" for a negative value that rounds to zero, as printf writes it.
std::string px(double v) {
  char buf[32];
  const double r = std::nearbyint(v);
  if (std::fabs(r) < 1e15) {
    char* p = buf;
    if (std::signbit(r)) *p++ = '-';
    p = std::to_chars(p, buf + sizeof buf - 2, static_cast<long long>(std::fabs(r))).ptr;
    *p++ = 'p';
    *p++ = 'x';
    return std::string(buf, p);
  }
  std::snprintf(buf, sizeof buf, "%.0fpx", v);
  return buf;
}

std::string box(double x, double y, double w, double h) {
  return "left:" + px(x) + ";top:" + px(y) + ";width:" + px(w) + ";height:" + px(h);
}

std::string owners_text(const std::vector<int>& owners) {
  std::string s;
  for (size_t k = 0; k < owners.size(); ++k) s += (k ? "," : "") + std::to_string(owners[k]);
  return s;
}

}  // namespace

std::string tensor_grid_html(const views::TensorGrid& grid,
                             const std::vector<std::string>& cell_text) {
  // Labels lie at negative grid coordinates: shift by the header rows and columns.
  double ox = grid.vertical_levels * kCellW * 0.7, oy = grid.horizontal_levels * kCellH;
  auto X = [&](double x) { return ox + x * kCellW; };
  auto Y = [&](double y) { return oy + y * kCellH; };
  std::string h = "<div class=\"tensor-grid\" style=\"width:" + px(X(grid.width) + 10) +
                  ";height:" + px(Y(grid.height) + 10) + "\">";
  for (const views::GridBlock& b : grid.blocks) {
    if (b.level == 0) continue;
    h += "<div class=\"block\" style=\"" +
         box(X(b.x) - 2, Y(b.y) - 2, b.w * kCellW + 4, b.h * kCellH + 4);
    if (!b.owners.empty()) h += ";border-color:#555";
    h += "\"></div>";
  }
  for (size_t i = 0; i < grid.cells.size(); ++i) {
    const views::GridCell& c = grid.cells[i];
    std::string text = i < cell_text.size() && !cell_text[i].empty() ? cell_text[i] : c.text;
    h += "<div class=\"cell\" style=\"" + box(X(c.x), Y(c.y), c.w * kCellW, c.h * kCellH);
    if (!c.owners.empty()) h += ";background:" + views::css_color(views::owners_color(c.owners));
    h += "\"";
    if (!c.owners.empty()) {
      h += " title=\"ranks";
      for (int r : c.owners) h += " " + std::to_string(r);
      h += "\"";
    }
    h += ">";
    append_html_escaped(h, text);
    if (!c.owners.empty() && !c.ellipsis) {
      h += "<sub>r";
      for (size_t k = 0; k < c.owners.size() && k < 3; ++k)
        h += (k ? "," : "") + std::to_string(c.owners[k]);
      h += "</sub>";
    }
    h += "</div>";
  }
  for (const views::GridEllipsis& e : grid.ellipses)
    h += "<div class=\"ellipsis\" style=\"" + box(X(e.x), Y(e.y), e.w * kCellW, e.h * kCellH) +
         "\">&hellip;</div>";
  for (const views::GridTick& t : grid.ticks) {
    double x = t.direction == views::Direction::kHorizontal ? X(t.x) : ox + t.x * kCellW * 0.7;
    double w = t.direction == views::Direction::kHorizontal ? t.w * kCellW : t.w * kCellW * 0.7;
    h += "<div class=\"axis\" style=\"" + box(x, Y(t.y), w, t.h * kCellH) + "\">";
    append_html_escaped(h, t.text);
    h += "</div>";
  }
  return h + "</div>";
}

}  // namespace tlscope::exporters

namespace tlscope::exporters {

std::string tensor_values_grid_html(const views::TensorGrid& grid,
                                    const std::vector<double>& values,
                                    const std::vector<int64_t>& shape) {
  constexpr double kValueW = 62;
  double ox = grid.vertical_levels * kValueW * 0.6, oy = grid.horizontal_levels * kCellH;
  auto X = [&](double x) { return ox + x * kValueW; };
  auto Y = [&](double y) { return oy + y * kCellH; };
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * std::max<int64_t>(1, shape[k]);
  std::string h = "<div class=\"tensor-grid values\" style=\"width:" + px(X(grid.width) + 10) +
                  ";height:" + px(Y(grid.height) + 24) + "\">";
  for (const views::GridBlock& b : grid.blocks) {
    if (b.level == 0) continue;
    h += "<div class=\"block\" style=\"" +
         box(X(b.x) - 2, Y(b.y) - 2, b.w * kValueW + 4, b.h * kCellH + 4) + "\"></div>";
  }
  char num[40];
  for (const views::GridCell& c : grid.cells) {
    h += "<div class=\"cell\" style=\"" + box(X(c.x), Y(c.y), c.w * kValueW, c.h * kCellH);
    if (!c.owners.empty()) h += ";background:" + views::css_color(views::owners_color(c.owners));
    h += "\"";
    if (!c.ellipsis) {
      int64_t flat = 0;
      std::string idx;
      for (size_t k = 0; k < c.index.size() && k < strides.size(); ++k) {
        flat += c.index[k] * strides[k];
        idx += (k ? "," : "") + std::to_string(c.index[k]);
      }
      double v = flat < static_cast<int64_t>(values.size()) ? values[flat] : std::nan("");
      std::snprintf(num, sizeof num, "%.17g", v);
      h += " data-idx=\"" + idx + "\" data-v=\"" + std::string(num) + "\" title=\"[" + idx +
           "] = " + num;
      if (!c.owners.empty()) h += ", ranks " + owners_text(c.owners);
      h += "\"";
      if (!c.owners.empty()) h += " data-owners=\"" + owners_text(c.owners) + "\"";
      h += ">";
      append_html_escaped(h, std::isnan(v) ? std::string("?") : c.text);
    } else {
      h += ">";
      append_html_escaped(h, c.text);
    }
    h += "</div>";
  }
  // Shard boxes: per innermost matrix, the bounding box of each owner set's cells.
  for (const views::GridBlock& b : grid.blocks) {
    if (b.level != 0 || grid.mesh_ranks == 0) continue;
    std::map<std::vector<int>, std::array<double, 4>> boxes;  // x0, y0, x1, y1
    for (size_t i = b.first_cell; i < b.end_cell && i < grid.cells.size(); ++i) {
      const views::GridCell& c = grid.cells[i];
      if (c.ellipsis || c.owners.empty()) continue;
      auto [it, fresh] =
          boxes.try_emplace(c.owners, std::array<double, 4>{c.x, c.y, c.x + c.w, c.y + c.h});
      auto& r = it->second;
      if (!fresh) {
        r[0] = std::min(r[0], c.x);
        r[1] = std::min(r[1], c.y);
        r[2] = std::max(r[2], c.x + c.w);
        r[3] = std::max(r[3], c.y + c.h);
      }
    }
    for (const auto& [owners, r] : boxes) {
      h += "<div class=\"shard\" data-owners=\"" + owners_text(owners) + "\" style=\"" +
           box(X(r[0]), Y(r[1]), (r[2] - r[0]) * kValueW, (r[3] - r[1]) * kCellH) +
           "\"><span class=\"shard-tag\" style=\"background:" +
           views::css_color(views::owners_color(owners)) + "\">r" + owners_text(owners) +
           "</span></div>";
    }
  }
  for (const views::GridEllipsis& e : grid.ellipses)
    h += "<div class=\"ellipsis\" style=\"" + box(X(e.x), Y(e.y), e.w * kValueW, e.h * kCellH) +
         "\">&hellip;</div>";
  for (const views::GridTick& t : grid.ticks) {
    bool across = t.direction == views::Direction::kHorizontal;
    double x = across ? X(t.x) : ox + t.x * kValueW * 0.6;
    double w = across ? t.w * kValueW : t.w * kValueW * 0.6;
    h += "<div class=\"axis\" style=\"" + box(x, Y(t.y), w, t.h * kCellH) + "\">";
    append_html_escaped(h, t.text);
    h += "</div>";
  }
  return h + "</div>";
}

}  // namespace tlscope::exporters
