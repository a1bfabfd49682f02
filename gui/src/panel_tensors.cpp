// Tensors panel: the logged tensor_values snapshots (with their dtensor_placement over the device
// mesh), the input layouts of every compile, describe_tensor rows, and a typed shape as a
// playground, each drawn as the matrix of matrices (views::layout_tensor_grid) with ImDrawList.
// Blocks and cells take their owner ranks' colour (views::owners_color, the one rank colour
// rule); hover shows index, value and owners; Ctrl+wheel zooms, drag pans.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "panel.hpp"
#include "tlscope/views/rank_colors.hpp"
#include "tlscope/views/tensor_grid.hpp"

namespace tlscope::gui {
namespace {

// What the tensors panel draws: a logged snapshot (tensor_values + dtensor_placement), an input
// layout of the compiles, a describe_tensor row, or a typed shape (the playground).
enum class TensorSource { kSnapshot, kLayout, kDescribed, kTyped };

// The panel's own state: the source picked, the boxes typed, the grid laid out from them.
struct TensorViewState {
  char shape[128] = "2,3,4,5";
  char names[128] = "";
  char mesh[64] = "";
  char placement[128] = "";
  TensorSource source = TensorSource::kTyped;
  int picked = -1;  // index into the source's list (snapshots, layouts, tensors)
  float cell_px = 26.0f;
  bool dirty = true;
  std::string error;
  std::optional<views::TensorGrid> grid;
  float value_width = 0;  // the widest cell text in pixels: cells are at least this wide
  size_t cells_drawn = 0;
};

// Where a session's panel starts: the start-up options' shape, mesh and placement, else what the
// log holds (its logged values first, else a described tensor).
TensorViewState start_state(ViewerSession& session) {
  TensorViewState tv;
  const ViewerOptions& options = session.options();
  std::snprintf(tv.mesh, sizeof tv.mesh, "%s", options.tensor_mesh.c_str());
  std::snprintf(tv.placement, sizeof tv.placement, "%s", options.tensor_placement.c_str());
  if (!options.tensor_shape.empty()) {
    std::snprintf(tv.shape, sizeof tv.shape, "%s", options.tensor_shape.c_str());
  } else if (!session.tensor_snapshots().entries.empty()) {
    tv.source = TensorSource::kSnapshot;
    tv.picked = 0;
  } else {
    const std::vector<views::TensorRow>& tensors = session.tensors();
    for (size_t i = 0; i < tensors.size(); ++i) {
      if (!tensors[i].shape) continue;
      tv.source = TensorSource::kDescribed;
      tv.picked = static_cast<int>(i);
      break;
    }
  }
  return tv;
}

constexpr float kTickColumn = 52.0f;  // width of one vertical header column

ImU32 rank_u32(views::Rgb c, float alpha = 1.0f) {
  return IM_COL32(c.r, c.g, c.b, static_cast<int>(alpha * 255));
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

std::string snapshot_label(const views::TensorSnapshot& s) {
  std::string dims;
  for (int64_t d : s.shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
  return "values of " + (s.name.empty() ? std::string("(unnamed)") : s.name) +
         (s.occurrence > 1 ? " #" + std::to_string(s.occurrence) : "") + " [" + dims + "] " +
         s.dtype + (s.mesh ? " sharded" : "");
}

std::string layout_label(const views::TensorLayout& l) {
  return "input layout " + l.dtype + " " + views::dims_text(l.size) + " (" +
         std::to_string(l.count) + " inputs)";
}

std::string described_label(const views::TensorRow& r) {
  return "tensor " + std::to_string(r.tensor_id) + " [" + r.compile_id + "] " + r.dtype + " " +
         r.size_json;
}

// The current source's name, for the combo and the dump.
std::string source_label(ViewerSession& session, const TensorViewState& tv) {
  const size_t i = static_cast<size_t>(std::max(0, tv.picked));
  switch (tv.source) {
    case TensorSource::kSnapshot:
      if (i < session.tensor_snapshots().entries.size())
        return snapshot_label(session.tensor_snapshots().entries[i].snapshot);
      break;
    case TensorSource::kLayout:
      if (i < session.tensor_layouts().layouts.rows.size())
        return layout_label(session.tensor_layouts().layouts.rows[i]);
      break;
    case TensorSource::kDescribed:
      if (i < session.tensors().size()) return described_label(session.tensors()[i]);
      break;
    case TensorSource::kTyped:
      break;
  }
  return "typed shape";
}

bool mesh_from_boxes(TensorViewState& tv, views::TensorGridInput& in) {
  if (!tv.mesh[0]) return true;
  auto shape = views::parse_mesh_shape(tv.mesh);
  auto placements = views::parse_placements(tv.placement[0] ? tv.placement : "Replicate()");
  if (!shape.ok() || !placements.ok()) {
    tv.error = shape.ok() ? placements.error : shape.error;
    return false;
  }
  in.mesh = views::DeviceMesh{shape.value, placements.value};
  return true;
}

void rebuild(ViewerSession& session, TensorViewState& tv) {
  tv.dirty = false;
  tv.error.clear();
  tv.grid.reset();
  views::TensorGridInput in;
  const size_t i = static_cast<size_t>(std::max(0, tv.picked));
  if (tv.source == TensorSource::kSnapshot && i < session.tensor_snapshots().entries.size()) {
    const views::TensorSnapshot& s = session.tensor_snapshots().entries[i].snapshot;
    in.shape = s.shape;
    in.values = s.values;
    in.mesh = s.mesh;
  } else if (tv.source == TensorSource::kLayout &&
             i < session.tensor_layouts().layouts.rows.size()) {
    in = views::layout_grid_input(session.tensor_layouts().layouts.rows[i].size);
  } else if (tv.source == TensorSource::kDescribed && i < session.tensors().size()) {
    const auto& row = session.tensors()[i];
    if (!row.shape) {
      tv.error = "size " + row.size_json + ": " + row.shape_error;
      return;
    }
    in.shape = *row.shape;
    in.flat_index_values = true;
    if (!mesh_from_boxes(tv, in)) return;
  } else {
    tv.source = TensorSource::kTyped;
    in.flat_index_values = true;
    if (!parse_shape(tv.shape, in.shape, tv.error)) return;
    if (tv.names[0]) {
      std::stringstream ss(tv.names);
      std::string n;
      while (std::getline(ss, n, ',')) in.names.push_back(n);
    }
    if (!mesh_from_boxes(tv, in)) return;
  }
  auto r = views::layout_tensor_grid(in);
  if (!r.grid) {
    tv.error = r.error;
    return;
  }
  tv.grid = std::move(r.grid);
  tv.value_width = 0;
}

std::string index_text(const std::vector<int64_t>& index) {
  std::string idx;
  for (size_t k = 0; k < index.size(); ++k) {
    if (k) idx += ',';
    idx += index[k] == views::kEllipsisIndex ? std::string("...") : std::to_string(index[k]);
  }
  return idx;
}

void draw_grid(TensorViewState& tv) {
  const views::TensorGrid& g = *tv.grid;
  const float s = tv.cell_px;
  // Cells widen to their widest value, so logged values are read, not guessed.
  if (tv.value_width == 0) {
    tv.value_width = 1;
    for (const auto& c : g.cells)
      tv.value_width =
          std::max(tv.value_width, ImGui::CalcTextSize(ui::font_safe(c.text).c_str()).x);
  }
  const float sx = std::max(s, tv.value_width + 8);
  const float hr = ImGui::GetTextLineHeight() + 4;
  ImGui::BeginChild("tensor_canvas", ImVec2(0, 0), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsWindowHovered()) {
    // Ctrl+wheel zooms, the wheel alone scrolls, a left drag pans.
    if (io.KeyCtrl && io.MouseWheel != 0.0f) {
      tv.cell_px = std::clamp(tv.cell_px * (io.MouseWheel > 0 ? 1.15f : 1.0f / 1.15f), 6.0f, 96.0f);
    } else if (io.MouseWheel != 0.0f) {
      ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseWheel * s * 3);
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
      ImGui::SetScrollX(ImGui::GetScrollX() - io.MouseDelta.x);
      ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseDelta.y);
    }
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 cursor = ImGui::GetCursorScreenPos();
  const float ox = cursor.x + static_cast<float>(g.vertical_levels) * kTickColumn;
  const float oy = cursor.y + static_cast<float>(g.horizontal_levels) * hr;
  auto px = [&](double x) {
    return x >= 0 ? ox + static_cast<float>(x) * sx : ox + static_cast<float>(x) * kTickColumn;
  };
  auto py = [&](double y) {
    return y >= 0 ? oy + static_cast<float>(y) * s : oy + static_cast<float>(y) * hr;
  };
  ImGui::Dummy(ImVec2(
      static_cast<float>(g.vertical_levels) * kTickColumn + static_cast<float>(g.width) * sx + 8,
      static_cast<float>(g.horizontal_levels) * hr + static_cast<float>(g.height) * s + 8));
  const ImVec2 view_min = ImGui::GetWindowPos();
  const ImVec2 view_max(view_min.x + ImGui::GetWindowSize().x,
                        view_min.y + ImGui::GetWindowSize().y);
  auto visible = [&](float x0, float y0, float x1, float y1) {
    return x1 >= view_min.x && x0 <= view_max.x && y1 >= view_min.y && y0 <= view_max.y;
  };
  auto centered = [&](float x0, float y0, float x1, float y1, const std::string& text, ImU32 col) {
    ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (size.x > x1 - x0 - 2) return false;
    dl->AddText(ImVec2((x0 + x1 - size.x) / 2, (y0 + y1 - size.y) / 2), col, text.c_str());
    return true;
  };
  const bool sharded = g.mesh_ranks > 0;
  for (const auto& b : g.blocks) {
    if (b.level != 0) continue;
    float x0 = px(b.x), y0 = py(b.y), x1 = px(b.x + b.w), y1 = py(b.y + b.h);
    if (!visible(x0, y0, x1, y1)) continue;
    ImU32 bg = sharded && !b.owners.empty()
                   ? rank_u32(views::owners_color(b.owners, views::RankTone::kDeep), 0.45f)
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
                        rank_u32(views::owners_color(c.owners, views::RankTone::kDeep)));
    }
    dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(90, 95, 110, 255));
    const std::string text = ui::font_safe(c.text);
    const bool fits =
        centered(x0, y0, x1, y1, text,
                 c.ellipsis ? IM_COL32(160, 160, 160, 255) : IM_COL32(240, 240, 240, 255));
    if (!c.ellipsis) {
      ui::record("cell", "[" + index_text(c.index) +
                             "] = " + (fits ? text : "(too small to show)") +
                             (sharded ? " on " + views::owner_tag(c.owners) : ""));
    }
    if (ImGui::IsMouseHoveringRect(ImVec2(x0, y0), ImVec2(x1, y1)) && ImGui::IsWindowHovered()) {
      ImGui::SetTooltip("[%s] = %s%s%s", index_text(c.index).c_str(), text.c_str(),
                        sharded ? "  on mesh ranks " : "",
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
    centered(x0, y0, x1, y1, ui::font_safe(t.text),
             t.level == 0 ? IM_COL32(150, 170, 200, 255) : IM_COL32(220, 200, 140, 255));
  }
  ImGui::EndChild();
}

void pick(TensorViewState& tv, TensorSource source, int index) {
  tv.source = source;
  tv.picked = index;
  tv.dirty = true;
}

void draw_source_combo(ViewerSession& session, TensorViewState& tv) {
  const std::string current = source_label(session, tv);
  ImGui::SetNextItemWidth(std::min(460.0f, ImGui::GetContentRegionAvail().x));
  ui::record("source", current);
  if (!ImGui::BeginCombo("source", ui::imgui_label(current).c_str())) return;
  auto item = [&](const std::string& label, TensorSource source, int index) {
    const bool selected =
        tv.source == source && (source == TensorSource::kTyped || tv.picked == index);
    const std::string id = ui::imgui_label(label) + "##" +
                           std::to_string(static_cast<int>(source)) + "_" + std::to_string(index);
    if (ImGui::Selectable(id.c_str(), selected)) {
      pick(tv, source, index);
    }
  };
  for (size_t i = 0; i < session.tensor_snapshots().entries.size(); ++i)
    item(snapshot_label(session.tensor_snapshots().entries[i].snapshot), TensorSource::kSnapshot,
         static_cast<int>(i));
  for (size_t i = 0; i < session.tensor_layouts().layouts.rows.size(); ++i)
    item(layout_label(session.tensor_layouts().layouts.rows[i]), TensorSource::kLayout,
         static_cast<int>(i));
  for (size_t i = 0; i < session.tensors().size(); ++i)
    item(described_label(session.tensors()[i]), TensorSource::kDescribed, static_cast<int>(i));
  item("typed shape", TensorSource::kTyped, -1);
  ImGui::EndCombo();
}

void draw_snapshot_facts(const views::TensorSnapshot& s) {
  if (s.placement) {
    std::string placements;
    for (const auto& p : s.placement->placement_texts)
      placements += (placements.empty() ? "" : ", ") + p;
    std::string mesh;
    for (int64_t d : s.placement->mesh_shape) mesh += (mesh.empty() ? "" : "x") + std::to_string(d);
    ui::text("label", "mesh " + mesh + ", placements " + placements);
  }
  for (const auto& b : s.blocks) {
    std::string block;
    for (size_t d = 0; d < b.lo.size() && d < b.hi.size(); ++d)
      block += (d ? ", " : "") + std::to_string(b.lo[d]) + ":" + std::to_string(b.hi[d]);
    ImGui::ColorButton(("##owner" + std::to_string(b.mesh_rank)).c_str(),
                       ImGui::ColorConvertU32ToFloat4(
                           rank_u32(views::rank_color(b.mesh_rank, views::RankTone::kDeep))),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
    ImGui::SameLine();
    ui::text("owner",
             "mesh rank " + std::to_string(b.mesh_rank) +
                 (b.rank >= 0 ? " (log rank " + std::to_string(b.rank) + ")" : " (not logged)") +
                 " holds [" + block + "]");
  }
  if (s.partial)
    ui::text_disabled("label", "values are the sum of the ranks' Partial() contributions");
  if (s.missing > 0)
    ui::text_disabled("label", std::to_string(s.missing) + " elements no rank logged");
  for (const auto& p : s.problems) ui::text_colored("error", ImVec4(1, 0.45f, 0.45f, 1), p);
}

void draw_tensors(ViewerSession& session, TensorViewState& tv) {
  draw_source_combo(session, tv);
  if (tv.source == TensorSource::kTyped || tv.source == TensorSource::kDescribed) {
    // The fields flow onto a second line in a narrow panel rather than run out of it.
    bool first = true;
    auto field = [&](const char* label, char* buf, size_t size, float width) {
      if (!first)
        ui::same_line_if_fits(width + ImGui::GetStyle().ItemInnerSpacing.x +
                              ImGui::CalcTextSize(label).x);
      first = false;
      ImGui::SetNextItemWidth(width);
      tv.dirty |= ImGui::InputText(label, buf, size);
    };
    if (tv.source == TensorSource::kTyped) {
      field("shape", tv.shape, sizeof tv.shape, 140);
      field("names", tv.names, sizeof tv.names, 120);
    }
    field("mesh", tv.mesh, sizeof tv.mesh, 80);
    field("placement", tv.placement, sizeof tv.placement, 220);
  }
  ImGui::SetNextItemWidth(120);
  ImGui::SliderFloat("cell px", &tv.cell_px, 6.0f, 96.0f, "%.0f");
  if (tv.dirty) rebuild(session, tv);
  const size_t i = static_cast<size_t>(std::max(0, tv.picked));
  if (tv.source == TensorSource::kSnapshot && i < session.tensor_snapshots().entries.size())
    draw_snapshot_facts(session.tensor_snapshots().entries[i].snapshot);
  if (!tv.error.empty()) {
    ui::text_colored("error", ImVec4(1, 0.4f, 0.4f, 1), tv.error);
    return;
  }
  if (!tv.grid) return;
  const auto& g = *tv.grid;
  std::string axes;
  for (const auto& a : g.axes) {
    axes += a.text + (a.direction == views::Direction::kHorizontal ? " across" : " down") + " L" +
            std::to_string(a.level) + "   ";
  }
  ui::text_wrapped("axes", axes.empty() ? "scalar" : axes);
  if (g.summarized) {
    ImGui::SameLine();
    ui::text_disabled("label", "(summarised: " + std::to_string(g.edge_items) + " edge items)");
  }
  ui::text_disabled("label", "hover: index, value, owners; Ctrl+wheel zooms, drag pans");
  draw_grid(tv);
}

class TensorsPanel : public Panel {
 public:
  TensorsPanel() : Panel(views::ScreenId::tensors) {}
  std::optional<int64_t> count(ViewerSession& session) const override {
    return static_cast<int64_t>(session.tensor_snapshots().total +
                                session.tensor_layouts().layouts.total);
  }
  void draw(ViewerSession& session) override {
    if (state_for_ != session.id()) {
      state_for_ = session.id();
      state_ = start_state(session);
    }
    draw_tensors(session, state_);
    session.drawn().tensor_cells = state_.cells_drawn;
  }

 private:
  TensorViewState state_;
  uint64_t state_for_ = 0;  // the session state_ started from
};

}  // namespace

std::unique_ptr<Panel> make_tensors_panel() {
  return std::make_unique<TensorsPanel>();
}

}  // namespace tlscope::gui
