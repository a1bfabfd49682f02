// Timeline window: chromium_events per rank and thread, laid out by views::layout_timeline each
// frame. Wheel zooms around the mouse, left-drag pans, "Fit" shows everything.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "palette.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {
namespace {

constexpr float kRowHeight = 20.0f;
constexpr float kLabelWidth = 170.0f;
constexpr float kAxisHeight = 22.0f;

void fit(ViewerData& data) {
  auto& v = data.timeline_view;
  const auto& t = data.timeline;
  double pad = std::max(1.0, (t.end_us - t.start_us) * 0.02);
  v.start_us = t.start_us - pad;
  v.end_us = t.end_us + pad;
  v.fitted = true;
}

// Axis ticks every 1, 2 or 5 x 10^k microseconds, labelled relative to the trace start.
void draw_axis(ImDrawList* dl, ImVec2 origin, float width, const TimelineViewState& v,
               double trace_start) {
  const double span = v.end_us - v.start_us;
  // At most one label per ~110 px so labels never overlap.
  const double max_ticks = std::max(2.0, static_cast<double>(width) / 110.0);
  double step = std::pow(10.0, std::floor(std::log10(span / max_ticks)));
  if (span / step > max_ticks) step *= 2;
  if (span / step > max_ticks) step *= 2.5;
  const double first = std::ceil((v.start_us - trace_start) / step) * step + trace_start;
  for (double t = first; t <= v.end_us; t += step) {
    float x = origin.x + static_cast<float>((t - v.start_us) / span * width);
    dl->AddLine(ImVec2(x, origin.y + kAxisHeight - 6), ImVec2(x, origin.y + kAxisHeight),
                IM_COL32(180, 180, 180, 255));
    char label[32];
    double ms = (t - trace_start) / 1000.0;
    std::snprintf(label, sizeof label, step >= 1000 ? "%.0f ms" : "%.3f ms", ms);
    dl->AddText(ImVec2(x + 2, origin.y + 2), IM_COL32(200, 200, 200, 255), label);
  }
}

}  // namespace

void draw_timeline_window(ViewerData& data) {
  auto& v = data.timeline_view;
  v.last_frame = {};
  v.items_drawn = 0;
  v.folded_drawn = 0;
  const auto& t = data.timeline;
  if (!v.fitted) fit(data);
  if (ImGui::Button("Fit")) fit(data);
  ImGui::SameLine();
  size_t zones = t.intervals.size() - t.rejected;
  ImGui::Text("%zu lanes, %zu zones | view %.3f ms | wheel: zoom, drag: pan", t.lanes.size(), zones,
              (v.end_us - v.start_us) / 1000.0);
  if (t.lanes.empty()) {
    ImGui::TextDisabled("no chromium_events intervals in this database");
    return;
  }

  ImGui::BeginChild("timeline_canvas", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float canvas_x = origin.x + kLabelWidth;
  const float canvas_w = std::max(10.0f, ImGui::GetContentRegionAvail().x - kLabelWidth);
  const float content_h = kAxisHeight + static_cast<float>(t.rows) * kRowHeight;
  ImGui::InvisibleButton("timeline_input", ImVec2(kLabelWidth + canvas_w, content_h));
  const bool hovered = ImGui::IsItemHovered();

  // Zoom around the mouse, pan by drag.
  ImGuiIO& io = ImGui::GetIO();
  const double span = v.end_us - v.start_us;
  if (hovered && io.MouseWheel != 0.0f) {
    double frac = std::clamp((io.MousePos.x - canvas_x) / canvas_w, 0.0f, 1.0f);
    double at = v.start_us + frac * span;
    double new_span = std::max(0.01, span * std::pow(0.8, io.MouseWheel));
    v.start_us = at - frac * new_span;
    v.end_us = v.start_us + new_span;
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
    double dt = -io.MouseDelta.x / canvas_w * span;
    v.start_us += dt;
    v.end_us += dt;
  }

  const float rows_y = origin.y + kAxisHeight;
  draw_axis(dl, ImVec2(canvas_x, origin.y), canvas_w, v, t.start_us);
  const ImVec2 clip_min = ImGui::GetWindowPos();
  const ImVec2 clip_max(clip_min.x + ImGui::GetWindowSize().x,
                        clip_min.y + ImGui::GetWindowSize().y);
  for (const auto& lane : t.lanes) {
    float y = rows_y + static_cast<float>(lane.first_row) * kRowHeight;
    char label[96];
    std::snprintf(label, sizeof label, "rank %lld %s", static_cast<long long>(lane.rank),
                  lane.thread.c_str());
    if (lane.rank < 0) std::snprintf(label, sizeof label, "%s", lane.thread.c_str());
    dl->AddText(ImVec2(origin.x + 4, y + 3), IM_COL32(220, 220, 220, 255), label);
    dl->AddLine(ImVec2(origin.x, y), ImVec2(canvas_x + canvas_w, y), IM_COL32(90, 90, 90, 255));
  }

  views::TimelineViewport vp{v.start_us, v.end_us, canvas_w, 3.0};
  v.last_frame = views::layout_timeline(t, vp);
  dl->PushClipRect(ImVec2(canvas_x, rows_y), ImVec2(canvas_x + canvas_w, clip_max.y), true);
  const views::TimelineItem* hovered_item = nullptr;
  size_t drawn = 0;
  for (const auto& item : v.last_frame.items) {
    float y0 = rows_y + static_cast<float>(item.row) * kRowHeight + 1;
    float y1 = y0 + kRowHeight - 2;
    if (y1 < clip_min.y || y0 > clip_max.y) continue;  // scrolled out of view
    ++drawn;
    if (item.count > 1) ++v.folded_drawn;
    float x0 = canvas_x + static_cast<float>(item.x0);
    float x1 = std::max(x0 + 1.0f, canvas_x + static_cast<float>(item.x1));
    const std::string& name = t.intervals[item.interval].name;
    if (item.count > 1) {
      // Folded zones: a grey band with the count, as Tracy draws merged zones.
      x1 = std::max(x1, x0 + 3.0f);
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(120, 120, 130, 255));
      char n[16];
      std::snprintf(n, sizeof n, "%u", item.count);
      if (ImGui::CalcTextSize(n).x + 4 < x1 - x0) {
        dl->AddText(ImVec2(x0 + 2, y0 + 2), IM_COL32(255, 255, 255, 255), n);
      }
    } else {
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), name_color(name));
      if (x1 - x0 > 24) {
        ImVec4 clip(std::max(x0, canvas_x) + 2, y0, std::min(x1, canvas_x + canvas_w) - 2, y1);
        dl->AddText(nullptr, 0.0f, ImVec2(std::max(x0, canvas_x) + 3, y0 + 2),
                    IM_COL32(15, 15, 15, 255), name.c_str(), nullptr, 0.0f, &clip);
      }
    }
    if (hovered && io.MousePos.x >= x0 && io.MousePos.x < x1 && io.MousePos.y >= y0 &&
        io.MousePos.y < y1) {
      hovered_item = &item;
    }
  }
  dl->PopClipRect();
  if (hovered_item) {
    const auto& iv = t.intervals[hovered_item->interval];
    if (hovered_item->count > 1) {
      ImGui::SetTooltip("%u zones folded (first: %s)", hovered_item->count, iv.name.c_str());
    } else {
      ImGui::SetTooltip("%s\n%.3f ms at +%.3f ms\nchromium_events.id %lld", iv.name.c_str(),
                        (iv.end_us - iv.start_us) / 1000.0, (iv.start_us - t.start_us) / 1000.0,
                        static_cast<long long>(iv.source_id));
    }
  }
  v.items_drawn = drawn;
  ImGui::EndChild();
}

}  // namespace tlscope::gui
