// Layout of the matrix-of-matrices tensor drawing.
#include "tensor_grid_html.hpp"

#include <algorithm>
#include <functional>

#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

constexpr int kCellW = 44, kCellH = 18, kEllipsis = 16, kLabel = 14;

struct Dim {
  std::string text;
  int64_t size = 2;       // drawn size (symbolic dims draw 2)
  int64_t stride = 0;
  bool symbolic = false;
  std::vector<int64_t> shown;  // indices drawn; -1 marks the ellipsis slot
};

int gap_for(int p) { return p < 2 ? 0 : 6 * (p / 2) + 4; }

}  // namespace

std::vector<std::string> json_dims(const std::string& json) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : json) {
    if (c == '[' || c == ']' || c == ' ' || c == '"') continue;
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

TensorGridHtml tensor_grid_html(const std::string& size_json, const std::string& stride_json,
                                int64_t storage_offset) {
  TensorGridHtml out;
  std::vector<std::string> sizes = json_dims(size_json), strides = json_dims(stride_json);
  int n = static_cast<int>(sizes.size());
  // Fewer edge items for higher ranks keep the drawing to a few thousand cells.
  int edge = n <= 2 ? 4 : n <= 3 ? 3 : n <= 4 ? 2 : 1;
  std::vector<Dim> dims(n);
  for (int k = 0; k < n; ++k) {
    Dim& d = dims[k];
    d.text = sizes[k];
    bool numeric = !d.text.empty() && std::all_of(d.text.begin(), d.text.end(), ::isdigit);
    d.symbolic = !numeric;
    d.size = numeric ? std::stoll(d.text.substr(0, 15)) : 2;
    const std::string& st = k < static_cast<int>(strides.size()) ? strides[k] : std::string();
    bool stride_numeric = !st.empty() && std::all_of(st.begin(), st.end(), ::isdigit);
    d.stride = stride_numeric ? std::stoll(st.substr(0, 15)) : -1;
    if (d.size > 2 * edge + 1) {
      out.summarised = true;
      for (int i = 0; i < edge; ++i) d.shown.push_back(i);
      d.shown.push_back(-1);
      for (int64_t i = d.size - edge; i < d.size; ++i) d.shown.push_back(i);
    } else {
      for (int64_t i = 0; i < d.size; ++i) d.shown.push_back(i);
    }
  }
  if (n == 0) {
    out.html = "<div class=\"cell\" style=\"left:0;top:0;width:" + std::to_string(kCellW) +
               "px;height:" + std::to_string(kCellH) + "px\">" + std::to_string(storage_offset) +
               "</div>";
    out.cells = 1;
    return out;
  }
  // Extent of the block formed by dims k..n-1.
  std::vector<std::pair<int, int>> extent(n + 1, {kCellW, kCellH});
  for (int k = n - 1; k >= 0; --k) {
    int p = n - 1 - k;
    auto [w, h] = extent[k + 1];
    int items = 0, ellipses = 0;
    for (int64_t i : dims[k].shown) (i < 0 ? ellipses : items)++;
    int gap = gap_for(p);
    if (p % 2 == 0) {
      extent[k] = {items * w + ellipses * kEllipsis + (items + ellipses - 1) * gap + (p >= 2 ? kLabel : 0), h};
      if (p >= 2) extent[k].second += kLabel;
    } else {
      extent[k] = {w, items * h + ellipses * kEllipsis + (items + ellipses - 1) * gap};
      if (p >= 2) extent[k].first += kLabel, extent[k].second += kLabel;
    }
  }
  std::string& html = out.html;
  std::function<void(int, int, int, int64_t)> place = [&](int k, int x, int y, int64_t offset) {
    if (k == n) {
      // Offsets are coloured on a repeating hue so neighbours in memory look alike.
      int hue = static_cast<int>((offset * 37) % 360);
      html += "<div class=\"cell\" style=\"left:" + std::to_string(x) + "px;top:" +
              std::to_string(y) + "px;width:" + std::to_string(kCellW) + "px;height:" +
              std::to_string(kCellH) + "px;background:hsl(" + std::to_string(hue) +
              ",60%,92%)\" title=\"storage offset\">" + std::to_string(offset) + "</div>";
      ++out.cells;
      return;
    }
    int p = n - 1 - k;
    bool across = p % 2 == 0;
    int gap = gap_for(p);
    auto [w, h] = extent[k + 1];
    int pos = 0;
    for (int64_t i : dims[k].shown) {
      int bx = across ? x + pos : x, by = across ? y : y + pos;
      if (i < 0) {
        html += "<div class=\"ellipsis\" style=\"left:" + std::to_string(bx) + "px;top:" +
                std::to_string(by) + "px;width:" + std::to_string(across ? kEllipsis : w) +
                "px;height:" + std::to_string(across ? h : kEllipsis) + "px\">&hellip;</div>";
        pos += kEllipsis + gap;
        continue;
      }
      // Outer levels label each block with its index so a reader can tell which dim a jump crosses.
      int ix = bx, iy = by;
      if (p >= 2) {
        html += "<div class=\"axis\" style=\"left:" + std::to_string(bx) + "px;top:" +
                std::to_string(by) + "px\">d" + std::to_string(k) + "=" + std::to_string(i) + "</div>";
      }
      if (p >= 2) iy += kLabel;
      int64_t step = dims[k].stride >= 0 ? dims[k].stride * i : 0;
      place(k + 1, ix, iy, offset + step);
      pos += (across ? w : h) + gap;
    }
  };
  place(0, 0, 0, storage_offset);
  int total_w = extent[0].first, total_h = extent[0].second;
  html = "<div class=\"tensor-grid\" style=\"width:" + std::to_string(total_w + 20) + "px;height:" +
         std::to_string(total_h + 20) + "px\">" + html + "</div>";
  return out;
}

}  // namespace tlscope::exporters
