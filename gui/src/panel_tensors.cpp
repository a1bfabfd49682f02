// Tensors panel: a describe_tensor row or a typed shape drawn with ImDrawList from the
// TensorGrid structs, optionally sharded over a device mesh and coloured by owner rank.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "palette.hpp"
#include "panel.hpp"
#include "tlscope/views/tensor_grid_text.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {
namespace {

constexpr float kTickColumn = 52.0f;  // width of one vertical header column

// The default ImGui font is ASCII only: spell the Unicode ellipses out.
std::string ascii(const std::string& s) {
  if (s == "\u2026") return "...";
  if (s == "\u22ee") return ":";
  if (s == "\u22f1") return "..";
  return s;
}

bool parse_shape(const char* text, std::vector<int64_t>& shape, std::string& error) {
  shape.clear();
  std::string t = text;
  t.erase(std::remove_if(
              t.begin(), t.end(),
              [](char c) { return c == ' ' || c == '(' || c == ')' || c == '[' || c == ']'; }),
          t.end());
  if (t.empty()) return true;
  std::stringstream ss(t);
  std::string part;
  while (std::getline(ss, part, ',')) {
    char* end = nullptr;
    long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || v < 0) {
      error = "bad shape '" + std::string(text) + "': want sizes like 2,3,4";
      return false;
    }
    shape.push_back(v);
  }
  return true;
}

void rebuild(ViewerData& data) {
  auto& tv = data.tensor_view;
  tv.dirty = false;
  tv.error.clear();
  tv.grid.reset();
  views::TensorGridInput in;
  in.flat_index_values = true;
  if (tv.picked_row >= 0 && tv.picked_row < static_cast<int>(data.tensors.size())) {
    const auto& row = data.tensors[static_cast<size_t>(tv.picked_row)];
    if (!row.shape) {
      tv.error = "size " + row.size_json + ": " + row.shape_error;
      return;
    }
    in.shape = *row.shape;
  } else if (!parse_shape(tv.shape, in.shape, tv.error)) {
    return;
  }
  if (tv.names[0]) {
    std::stringstream ss(tv.names);
    std::string n;
    while (std::getline(ss, n, ',')) in.names.push_back(n);
  }
  if (tv.mesh[0]) {
    auto shape = views::parse_mesh_shape(tv.mesh, &tv.error);
    auto placements =
        views::parse_placements(tv.placement[0] ? tv.placement : "Replicate()", &tv.error);
    if (!shape || !placements) return;
    in.mesh = views::DeviceMesh{*shape, *placements};
  }
  auto r = views::layout_tensor_grid(in);
  if (!r.grid) {
    tv.error = r.error;
    return;
  }
  tv.grid = std::move(r.grid);
}

void draw_grid(ViewerData& data) {
  auto& tv = data.tensor_view;
  const views::TensorGrid& g = *tv.grid;
  const float s = tv.cell_px;
  const float hr = ImGui::GetTextLineHeight() + 4;
  ImGui::BeginChild("tensor_canvas", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const float ox = cursor.x + static_cast<float>(g.vertical_levels) * kTickColumn;
  const float oy = cursor.y + static_cast<float>(g.horizontal_levels) * hr;
  auto px = [&](double x) {
    return x >= 0 ? ox + static_cast<float>(x) * s : ox + static_cast<float>(x) * kTickColumn;
  };
  auto py = [&](double y) {
    return y >= 0 ? oy + static_cast<float>(y) * s : oy + static_cast<float>(y) * hr;
  };
  ImGui::Dummy(ImVec2(
      static_cast<float>(g.vertical_levels) * kTickColumn + static_cast<float>(g.width) * s + 8,
      static_cast<float>(g.horizontal_levels) * hr + static_cast<float>(g.height) * s + 8));
  const ImVec2 view_min = ImGui::GetWindowPos();
  const ImVec2 view_max(view_min.x + ImGui::GetWindowSize().x,
                        view_min.y + ImGui::GetWindowSize().y);
  auto visible = [&](float x0, float y0, float x1, float y1) {
    return x1 >= view_min.x && x0 <= view_max.x && y1 >= view_min.y && y0 <= view_max.y;
  };
  auto centered = [&](float x0, float y0, float x1, float y1, const std::string& text, ImU32 col) {
    ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (size.x > x1 - x0 - 2) return;
    dl->AddText(ImVec2((x0 + x1 - size.x) / 2, (y0 + y1 - size.y) / 2), col, text.c_str());
  };
  const bool sharded = g.mesh_ranks > 0;
  for (const auto& b : g.blocks) {
    if (b.level != 0) continue;
    float x0 = px(b.x), y0 = py(b.y), x1 = px(b.x + b.w), y1 = py(b.y + b.h);
    if (!visible(x0, y0, x1, y1)) continue;
    ImU32 bg = sharded && !b.owners.empty() ? owner_color(b.owners, g.mesh_ranks, 0.35f)
                                            : IM_COL32(45, 50, 60, 255);
    dl->AddRectFilled(ImVec2(x0 - 1, y0 - 1), ImVec2(x1 + 1, y1 + 1), bg);
  }
  tv.cells_drawn = 0;
  for (const auto& c : g.cells) {
    float x0 = px(c.x), y0 = py(c.y), x1 = px(c.x + c.w), y1 = py(c.y + c.h);
    if (!visible(x0, y0, x1, y1)) continue;
    ++tv.cells_drawn;
    if (sharded && !c.ellipsis) {
      dl->AddRectFilled(ImVec2(x0 + 1, y0 + 1), ImVec2(x1 - 1, y1 - 1),
                        owner_color(c.owners, g.mesh_ranks, 0.8f));
    }
    dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(90, 95, 110, 255));
    centered(x0, y0, x1, y1, ascii(c.text),
             c.ellipsis ? IM_COL32(160, 160, 160, 255) : IM_COL32(235, 235, 235, 255));
    if (ImGui::IsMouseHoveringRect(ImVec2(x0, y0), ImVec2(x1, y1)) && ImGui::IsWindowHovered()) {
      std::string idx;
      for (size_t k = 0; k < c.index.size(); ++k) {
        if (k) idx += ',';
        idx +=
            c.index[k] == views::kEllipsisIndex ? std::string("...") : std::to_string(c.index[k]);
      }
      ImGui::SetTooltip("[%s] = %s%s%s", idx.c_str(), ascii(c.text).c_str(), sharded ? "  on " : "",
                        sharded ? views::owner_tag(c.owners).c_str() : "");
    }
  }
  for (const auto& sep : g.separators) {
    ImU32 col = sep.level == 1 ? IM_COL32(200, 200, 120, 255) : IM_COL32(240, 150, 90, 255);
    float thick = static_cast<float>(sep.level);
    if (sep.orientation == views::LineOrientation::kVertical) {
      dl->AddLine(ImVec2(px(sep.pos), py(sep.from)), ImVec2(px(sep.pos), py(sep.to)), col, thick);
    } else {
      dl->AddLine(ImVec2(px(sep.from), py(sep.pos)), ImVec2(px(sep.to), py(sep.pos)), col, thick);
    }
  }
  for (const auto& e : g.ellipses) {
    centered(px(e.x) - s, py(e.y), px(e.x + e.w) + s, py(e.y + e.h), "...",
             IM_COL32(200, 200, 200, 255));
  }
  for (const auto& t : g.ticks) {
    float x0 = px(t.x), y0 = py(t.y), x1 = px(t.x + t.w), y1 = py(t.y + t.h);
    if (!visible(x0, y0, x1, y1)) continue;
    centered(x0, y0, x1, y1, ascii(t.text),
             t.level == 0 ? IM_COL32(150, 170, 200, 255) : IM_COL32(220, 200, 140, 255));
  }
  ImGui::EndChild();
}

void draw_tensors(ViewerData& data) {
  auto& tv = data.tensor_view;
  std::string current = "typed shape";
  if (tv.picked_row >= 0 && tv.picked_row < static_cast<int>(data.tensors.size())) {
    const auto& r = data.tensors[static_cast<size_t>(tv.picked_row)];
    current = "tensor " + std::to_string(r.tensor_id) + " [" + r.compile_id + "] " + r.size_json;
  }
  ImGui::SetNextItemWidth(300);
  if (ImGui::BeginCombo("source", current.c_str())) {
    if (ImGui::Selectable("typed shape", tv.picked_row < 0)) {
      tv.picked_row = -1;
      tv.dirty = true;
    }
    for (size_t i = 0; i < data.tensors.size(); ++i) {
      const auto& r = data.tensors[i];
      std::string label = "tensor " + std::to_string(r.tensor_id) + " [" + r.compile_id + "] " +
                          r.dtype + " " + r.size_json + "##" + std::to_string(i);
      if (ImGui::Selectable(label.c_str(), tv.picked_row == static_cast<int>(i))) {
        tv.picked_row = static_cast<int>(i);
        tv.dirty = true;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(140);
  if (ImGui::InputText("shape", tv.shape, sizeof tv.shape)) {
    tv.picked_row = -1;
    tv.dirty = true;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120);
  tv.dirty |= ImGui::InputText("names", tv.names, sizeof tv.names);
  ImGui::SetNextItemWidth(80);
  tv.dirty |= ImGui::InputText("mesh", tv.mesh, sizeof tv.mesh);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(220);
  tv.dirty |= ImGui::InputText("placement", tv.placement, sizeof tv.placement);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120);
  ImGui::SliderFloat("cell px", &tv.cell_px, 8.0f, 64.0f, "%.0f");
  if (tv.dirty) rebuild(data);
  if (!tv.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", tv.error.c_str());
  } else if (tv.grid) {
    const auto& g = *tv.grid;
    std::string axes;
    for (const auto& a : g.axes) {
      axes += a.text + (a.direction == views::Direction::kHorizontal ? " across" : " down") + " L" +
              std::to_string(a.level) + "   ";
    }
    ImGui::TextUnformatted(axes.empty() ? "scalar" : axes.c_str());
    if (g.summarized) {
      ImGui::SameLine();
      ImGui::TextDisabled("(summarised: %d edge items)", g.edge_items);
    }
    if (g.mesh_ranks > 0) {
      std::map<std::vector<int>, int> sets;
      for (const auto& c : g.cells) {
        if (!c.ellipsis) sets.emplace(c.owners, 0);
      }
      ImGui::TextUnformatted("owners:");
      for (const auto& [owners, unused] : sets) {
        ImGui::SameLine();
        ImGui::ColorButton(views::owner_tag(owners).c_str(),
                           ImGui::ColorConvertU32ToFloat4(owner_color(owners, g.mesh_ranks)),
                           ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
        ImGui::SameLine();
        ImGui::TextUnformatted(views::owner_tag(owners).c_str());
      }
    }
    draw_grid(data);
  }
}

class TensorsPanel : public Panel {
 public:
  TensorsPanel() : Panel(views::ScreenId::tensors) {}
  std::optional<int64_t> count(const ViewerData& data) const override {
    return static_cast<int64_t>(data.tensors.size());
  }
  void draw(PanelContext& ctx) override { draw_tensors(ctx.data); }
};

}  // namespace

std::unique_ptr<Panel> make_tensors_panel() {
  return std::make_unique<TensorsPanel>();
}

}  // namespace tlscope::gui
