// The timeline panel: compile-phase lanes and collective lanes per run, rank and thread on one
// time axis, laid out by views::layout_timeline each frame (culling, folding with counts) and
// drawn from the headless draw list. The ruler stays pinned above the scrolling lanes; wheel or
// W/S zoom at the cursor, drag, A/D and the arrows pan, right-drag measures a range; a click
// selects a zone (details in the details pane) or opens a folded item; matched collectives are
// linked across lanes when one is selected; problem markers sit on the lanes of the ranks
// involved; lane labels collapse lanes and unfold rank groups.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "fit_text.hpp"
#include "timeline_panel.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::gui {
namespace {

constexpr float kRowHeight = 18.0f, kLaneGap = 6.0f;
constexpr float kLabelPadLeft = 4.0f, kLabelPadRight = 6.0f;  // around a lane label
constexpr size_t kMaxRecordedZones = 300;  // zone labels in the UI dump per frame

ImVec4 rgb_vec(uint32_t rgb) {
  return ImVec4(static_cast<float>((rgb >> 16) & 0xff) / 255.0f,
                static_cast<float>((rgb >> 8) & 0xff) / 255.0f,
                static_cast<float>(rgb & 0xff) / 255.0f, 1.0f);
}

}  // namespace

void TimelinePanel::ensure(const ViewerData& data) {
  auto scene = timeline_scene(data);
  if (scene == scene_) return;
  scene_ = std::move(scene);
  const size_t lanes = scene_->timeline.lanes.size();
  collapsed_.assign(lanes, 0);
  hidden_.assign(lanes, 0);
  group_open_.assign(scene_->folding.groups.size(), 0);
  selected_ = selected_marker_ = details_for_ = -1;
  has_range_ = false;
  fit();
}

void TimelinePanel::fit() {
  const views::Timeline& t = scene_->timeline;
  view_.focus(t.start_us, t.end_us, 0.02);
}

void TimelinePanel::reveal_lane(int lane) {
  if (lane < 0) return;
  const int g = scene_->lane_group[static_cast<size_t>(lane)];
  if (g >= 0) group_open_[static_cast<size_t>(g)] = 1;
  scroll_to_lane_ = lane;
}

void TimelinePanel::focus_collective(const std::string& pg, int64_t seq) {
  double a = INFINITY, b = -INFINITY;
  for (const auto& bar : scene_->collectives.bars) {
    if (bar.pg_name != pg || bar.seq != seq) continue;
    a = std::min(a, bar.start_us);
    b = std::max(b, bar.end_us);
  }
  if (a <= b) view_.focus(a, b, 1.0);
}

int TimelinePanel::lane_of_marker(const views::ProblemMarker& m) const {
  int first = -1;
  for (size_t i = 0; i < scene_->timeline.lanes.size(); ++i) {
    const auto& l = scene_->timeline.lanes[i];
    if (l.run != m.run || l.rank != m.rank) continue;
    if (l.thread == "collectives") return static_cast<int>(i);
    if (first < 0) first = static_cast<int>(i);
  }
  return first;
}

std::string TimelinePanel::shown_label(size_t lane) const {
  const int g = scene_->lane_group[lane];
  if (g < 0 || group_open_[static_cast<size_t>(g)]) return scene_->lane_labels[lane];
  // The group's label from views (the report's collective page shows the same one).
  return scene_->folding.groups[static_cast<size_t>(g)].label + " \xC2\xB7 " +
         scene_->timeline.lanes[lane].thread;
}

void TimelinePanel::draw_toolbar() {
  if (ui::button("button", "Fit")) fit();
  ImGui::SameLine();
  ui::text("label", "view " + views::format_duration_us(view_.span()));
  if (has_range_) {
    ImGui::SameLine();
    ui::text_colored("range", ImVec4(1.0f, 0.85f, 0.4f, 1.0f),
                     "selection " + views::format_duration_us(std::fabs(range_b_ - range_a_)));
    ImGui::SameLine();
    if (ui::button("button", "Zoom to selection")) {
      view_.start_us = std::min(range_a_, range_b_);
      view_.end_us = std::max(range_a_, range_b_);
      has_range_ = false;
    }
  }
  // Toolbar items flow onto the next line when the panel is narrow (nothing is clipped).
  auto next_fits = [](float width) {
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
  };
  const char* hint = "wheel/W S zoom, drag/A D/arrows pan, right-drag measures, click selects";
  next_fits(ImGui::CalcTextSize(hint).x);
  ui::text_disabled("hint", hint);
  // The legend: the kinds on screen, in the colours they are drawn with.
  std::vector<bool> phase(std::size(views::kPhaseKinds)), op(std::size(views::kCollectiveKinds));
  for (const auto& iv : scene_->timeline.intervals) {
    auto& seen = views::kind_is_op(iv) ? op : phase;
    seen[std::min<size_t>(iv.kind, seen.size() - 1)] = true;
  }
  bool first = true;
  auto entry = [&](const views::KindStyle& k) {
    const float width = 16 + ImGui::CalcTextSize(std::string(k.label).c_str()).x;
    if (!first) next_fits(width);
    first = false;
    ImGui::ColorButton(std::string("##").append(k.id).c_str(), rgb_vec(k.rgb),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
    ImGui::SameLine(0, 4);
    ui::text("legend", k.label);
  };
  for (size_t i = 0; i < phase.size(); ++i)
    if (phase[i]) entry(views::kPhaseKinds[i]);
  for (size_t i = 0; i < op.size(); ++i)
    if (op[i]) entry(views::kCollectiveKinds[i]);
  if (!scene_->collectives.markers.empty())
    entry({"problem", "problem marker", views::style_of(views::ProblemKind::desync).rgb});
  for (const auto& p : scene_->problems) ui::text_colored("error", ImVec4(1, 0.45f, 0.45f, 1), p);
}

void TimelinePanel::draw(PanelContext& ctx) {
  ensure(ctx.data);
  draw_toolbar();
  if (scene_->timeline.lanes.empty()) {
    ui::text_disabled("label", "No compile phases or collectives in this database.");
    return;
  }
  draw_lanes(ctx);
}

void TimelinePanel::draw_lanes(PanelContext& ctx) {
  const views::Timeline& t = scene_->timeline;
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The label column fits the widest label shown with its "[+] " mark, within 45% of the panel
  // (the lanes keep the rest); a label still wider is cut around "...", whole in its tooltip.
  float label_w = 120.0f;
  for (size_t i = 0; i < t.lanes.size(); ++i)
    label_w = std::max(label_w, ImGui::CalcTextSize(("[+] " + shown_label(i)).c_str()).x +
                                    kLabelPadLeft + kLabelPadRight);
  label_w = std::min(label_w, std::max(120.0f, avail.x * 0.45f));
  const ImGuiStyle& style = ImGui::GetStyle();
  const float canvas_w =
      std::max(60.0f, avail.x - label_w - style.ScrollbarSize - 2 * style.WindowPadding.x);
  // The ruler, outside the scrolling child: it stays put when the lanes scroll.
  const ImVec2 ruler_at = ImGui::GetCursorScreenPos();
  draw_timeline_ruler(ImGui::GetWindowDrawList(), ImVec2(ruler_at.x + label_w, ruler_at.y),
                      canvas_w, view_);
  ImGui::Dummy(ImVec2(1, kRulerHeight));

  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const int g = scene_->lane_group[i];
    hidden_[i] = g >= 0 && !group_open_[static_cast<size_t>(g)] && !scene_->lane_leads[i];
  }
  const TimelineRows rows = layout_rows(t, collapsed_, hidden_, kRowHeight, kLaneGap);

  ImGui::BeginChild("##lanes", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
  if (scroll_to_lane_ >= 0) {
    ImGui::SetScrollY(std::max(0.0f, rows.lane_top[static_cast<size_t>(scroll_to_lane_)] - 40));
    scroll_to_lane_ = -1;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 top = ImGui::GetCursorScreenPos();  // row y = 0, scrolled
  const float scroll = ImGui::GetScrollY(), view_h = ImGui::GetWindowHeight();
  const float cx = top.x + label_w;
  ImGui::InvisibleButton("##canvas", ImVec2(label_w + canvas_w, std::max(rows.height, 1.0f)),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  const bool focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
  auto time_at = [&](float x) { return view_.start_us + (x - cx) / canvas_w * view_.span(); };
  const double frac = std::clamp((io.MousePos.x - cx) / canvas_w, 0.0f, 1.0f);

  // Input: zoom at the cursor, pan, measure.
  if (hovered && io.MouseWheel != 0.0f) {
    if (io.KeyShift)
      ImGui::SetScrollY(scroll - io.MouseWheel * 3 * kRowHeight);
    else
      view_.zoom_at(frac, std::pow(0.8, io.MouseWheel));
  }
  if (focused && !io.WantTextInput) {
    const double step = view_.span() * 0.1;
    const double keyfrac = hovered ? frac : 0.5;
    if (ImGui::IsKeyPressed('W')) view_.zoom_at(keyfrac, 0.8);
    if (ImGui::IsKeyPressed('S')) view_.zoom_at(keyfrac, 1.25);
    if (ImGui::IsKeyPressed('A') || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
      view_.pan(-step);
    if (ImGui::IsKeyPressed('D') || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
      view_.pan(step);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
      ImGui::SetScrollY(scroll - 3 * kRowHeight);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
      ImGui::SetScrollY(scroll + 3 * kRowHeight);
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f)) {
    view_.pan(-io.MouseDelta.x / canvas_w * view_.span());
    ImGui::SetScrollY(scroll - io.MouseDelta.y);
    dragged_ = true;
  }
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    measuring_ = true;
    range_a_ = range_b_ = time_at(io.MousePos.x);
  }
  if (measuring_) {
    range_b_ = time_at(io.MousePos.x);
    has_range_ = range_a_ != range_b_;
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Right)) measuring_ = false;
  }
  const bool clicked = hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !dragged_;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) dragged_ = false;

  // Layout and draw list: only what is inside the time range and the scrolled rows.
  const views::TimelineFrame frame =
      views::layout_timeline(t, {view_.start_us, view_.end_us, canvas_w, 3});
  build_draw_list(t, frame, rows, scroll, view_h, 28, list_);
  ctx.data.timeline_view.items_drawn = list_.rects.size();
  ctx.data.timeline_view.folded_drawn = list_.folded;
  ctx.data.timeline_view.last_frame = frame;

  const float base = top.y + scroll;  // screen y of draw-list y 0
  const ImVec2 win = ImGui::GetWindowPos();
  dl->PushClipRect(ImVec2(cx, win.y), ImVec2(cx + canvas_w, win.y + view_h), true);
  const DrawRect* under = nullptr;
  for (const DrawRect& r : list_.rects) {
    const ImVec2 a(cx + r.x0, base + r.y0), b(cx + r.x1, base + r.y1);
    dl->AddRectFilled(a, b, r.rgba);
    if (static_cast<int>(r.interval) == selected_ && r.count == 1)
      dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), IM_COL32(255, 255, 255, 255),
                  0, 0, 2);
    if (hovered && io.MousePos.x >= a.x && io.MousePos.x < b.x && io.MousePos.y >= a.y &&
        io.MousePos.y < b.y)
      under = &r;
  }
  size_t recorded = 0;
  for (uint32_t i : list_.labelled) {
    const DrawRect& r = list_.rects[i];
    const std::string text =
        r.count > 1 ? std::to_string(r.count) + " zones" : t.intervals[r.interval].name;
    const float x0 = std::max(cx + r.x0, cx) + 3;
    const ImVec4 clip(x0, base + r.y0, std::min(cx + r.x1, cx + canvas_w) - 2, base + r.y1);
    dl->AddText(nullptr, 0.0f, ImVec2(x0, base + r.y0 + 1), IM_COL32(255, 255, 255, 255),
                text.c_str(), nullptr, 0.0f, &clip);
    if (recorded++ < kMaxRecordedZones) ui::record(r.count > 1 ? "folded" : "zone", text);
  }

  // Flow lines between the ranks' bars of the selected collective.
  const views::CollectiveTimeline& c = scene_->collectives;
  const views::CollectiveBar* sel_bar = nullptr;
  if (selected_ >= 0 &&
      t.intervals[static_cast<size_t>(selected_)].source == views::TimelineSource::collective)
    sel_bar = &c.bars[static_cast<size_t>(t.intervals[static_cast<size_t>(selected_)].source_id)];
  if (selected_marker_ >= 0) {
    const auto& m = c.markers[static_cast<size_t>(selected_marker_)];
    const int bar = views::find_collective_bar(c, m.pg_name, m.seq);
    if (bar >= 0 && !sel_bar) sel_bar = &c.bars[static_cast<size_t>(bar)];
  }
  // A bar's point: its rank's collectives lane, or the lane of its folded group's first rank.
  // (Looked up through the sorted collective lanes: a collective of 1,024 ranks has 1,024 bars.)
  auto collectives_lane = [&](int32_t run, int64_t rank) {
    const int l = views::collective_lane(c, run, rank);
    return l < 0 ? -1 : scene_->timeline_lane_of_collective_lane[static_cast<size_t>(l)];
  };
  auto bar_point = [&](const views::CollectiveBar& bar, ImVec2* p) {
    int lane = collectives_lane(bar.run, bar.rank);
    if (lane < 0) return false;
    if (rows.lane_top[static_cast<size_t>(lane)] < 0) {
      const int g = scene_->lane_group[static_cast<size_t>(lane)];
      if (g < 0) return false;
      lane =
          collectives_lane(bar.run, scene_->folding.groups[static_cast<size_t>(g)].ranks.front());
      if (lane < 0 || rows.lane_top[static_cast<size_t>(lane)] < 0) return false;
    }
    p->x = cx + static_cast<float>((bar.start_us - view_.start_us) / view_.span() * canvas_w);
    p->y = top.y + rows.lane_top[static_cast<size_t>(lane)] + kRowHeight / 2;
    return true;
  };
  if (sel_bar) {
    // The ranks' bars of the selected collective, top to bottom, joined by flow lines (red
    // into and out of a bar with a problem).
    std::vector<std::pair<ImVec2, bool>> points;
    for (const auto& bar : c.bars) {
      ImVec2 p;
      if (bar.pg_name == sel_bar->pg_name && bar.seq == sel_bar->seq && bar.run == sel_bar->run &&
          bar_point(bar, &p))
        points.emplace_back(p, bar.problem != views::ProblemKind::none);
    }
    std::sort(points.begin(), points.end(),
              [](const auto& a, const auto& b) { return a.first.y < b.first.y; });
    size_t linked = 0;
    for (size_t i = 1; i < points.size(); ++i) {
      if (points[i].first.y == points[i - 1].first.y) continue;  // folded onto one lane
      const bool bad = points[i].second || points[i - 1].second;
      dl->AddLine(points[i - 1].first, points[i].first,
                  bad ? IM_COL32(255, 90, 90, 255) : IM_COL32(235, 235, 240, 220), 2.0f);
      dl->AddCircleFilled(points[i].first, 3.0f, IM_COL32(235, 235, 240, 255));
      ++linked;
    }
    ui::record("link", bar_label(*sel_bar) + " of group " + sel_bar->pg_name + ": " +
                           std::to_string(linked) + " flow lines across ranks");
  }

  // Problem markers on the lanes of the ranks involved.
  const views::ProblemMarker* under_marker = nullptr;
  int under_marker_index = -1;
  for (size_t i = 0; i < c.markers.size(); ++i) {
    const views::ProblemMarker& m = c.markers[i];
    if (m.at_us < view_.start_us || m.at_us > view_.end_us) continue;
    const int lane = lane_of_marker(m);
    if (lane < 0 || rows.lane_top[static_cast<size_t>(lane)] < 0) continue;
    const float x = cx + static_cast<float>((m.at_us - view_.start_us) / view_.span() * canvas_w);
    const float y = top.y + rows.lane_top[static_cast<size_t>(lane)];
    const ImU32 col = packed_rgb(views::style_of(m.kind).rgb);
    dl->AddTriangleFilled(ImVec2(x - 7, y - 1), ImVec2(x + 7, y - 1), ImVec2(x, y + 11), col);
    dl->AddTriangle(ImVec2(x - 7, y - 1), ImVec2(x + 7, y - 1), ImVec2(x, y + 11),
                    static_cast<int>(i) == selected_marker_ ? IM_COL32(255, 255, 255, 255)
                                                            : IM_COL32(0, 0, 0, 200),
                    static_cast<int>(i) == selected_marker_ ? 2.0f : 1.0f);
    ui::record("marker", std::string(views::style_of(m.kind).label) + " on rank " +
                             std::to_string(m.rank) + " at " + views::format_duration_us(m.at_us) +
                             ": " + m.text);
    if (hovered && std::fabs(io.MousePos.x - x) <= 7 && io.MousePos.y >= y - 2 &&
        io.MousePos.y <= y + 12) {
      under_marker = &m;
      under_marker_index = static_cast<int>(i);
    }
  }
  if (has_range_) {
    const float x0 = cx + static_cast<float>((std::min(range_a_, range_b_) - view_.start_us) /
                                             view_.span() * canvas_w);
    const float x1 = cx + static_cast<float>((std::max(range_a_, range_b_) - view_.start_us) /
                                             view_.span() * canvas_w);
    dl->AddRectFilled(ImVec2(x0, win.y), ImVec2(x1, win.y + view_h), IM_COL32(255, 210, 90, 40));
    const std::string d = views::format_duration_us(std::fabs(range_b_ - range_a_));
    dl->AddText(ImVec2(x0 + 4, win.y + 4), IM_COL32(255, 220, 120, 255), d.c_str());
  }
  dl->PopClipRect();

  // Lane labels: a click collapses a lane or unfolds a rank group.
  int label_clicked = -1;
  std::string label_tooltip;  // the whole label under the pointer, when it was cut
  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const float y = rows.lane_top[i];
    size_t zones = 0;
    for (const auto& d : t.lanes[i].depths) zones += d.size();
    if (y < 0) {  // folded into its rank group: listed, not drawn
      ui::record("lane-folded", scene_->lane_labels[i] + ": " + std::to_string(zones) + " zones");
      continue;
    }
    const int g = scene_->lane_group[i];
    const bool group_lead = g >= 0 && scene_->lane_leads[i];
    const bool deep = t.lanes[i].depths.size() > 1;
    std::string mark = group_lead ? (group_open_[static_cast<size_t>(g)] ? "[-] " : "[+] ")
                       : deep     ? (collapsed_[i] ? "> " : "v ")
                                  : "  ";
    const std::string label = shown_label(i);
    const ImVec2 at(top.x + kLabelPadLeft, top.y + y + 2);
    const std::string whole = mark + label;
    const std::string text = fit_text(whole, cx - kLabelPadRight - at.x, whole.rfind(" \xC2\xB7 "));
    dl->AddText(at, IM_COL32(225, 225, 230, 255), text.c_str());
    // What was drawn, where: a cut label says so, and the whole one follows as "lane"/"group".
    ui::record_at("lane-label", text, at);
    const bool over_label = io.MousePos.x >= top.x && io.MousePos.x < cx &&
                            io.MousePos.y >= top.y + y && io.MousePos.y < top.y + y + kRowHeight;
    if (over_label && ImGui::IsWindowHovered() && text != whole) label_tooltip = label;
    dl->AddLine(ImVec2(top.x, top.y + y - kLaneGap / 2),
                ImVec2(cx + canvas_w, top.y + y - kLaneGap / 2), IM_COL32(70, 72, 80, 255));
    // The lane's own label names it in the dump (as in the report's data file); a folded
    // group's label is recorded beside it.
    ui::record("lane", scene_->lane_labels[i] + ": " + std::to_string(zones) + " zones" +
                           (collapsed_[i] ? " (collapsed)" : ""));
    if (label != scene_->lane_labels[i]) ui::record("group", label);
    if (clicked && io.MousePos.x < cx && io.MousePos.y >= top.y + y &&
        io.MousePos.y < top.y + y + kRowHeight)
      label_clicked = static_cast<int>(i);
  }
  if (label_clicked >= 0) {
    const size_t i = static_cast<size_t>(label_clicked);
    const int g = scene_->lane_group[i];
    if (g >= 0 && scene_->lane_leads[i])
      group_open_[static_cast<size_t>(g)] ^= 1;
    else
      collapsed_[i] ^= 1;
  }

  // Hover and click on zones and markers.
  if (!label_tooltip.empty()) {
    ImGui::SetTooltip("%s", label_tooltip.c_str());
  } else if (under_marker) {
    ImGui::SetTooltip("%s on rank %lld\n%s",
                      std::string(views::style_of(under_marker->kind).label).c_str(),
                      static_cast<long long>(under_marker->rank), under_marker->text.c_str());
  } else if (under) {
    const auto& iv = t.intervals[under->interval];
    if (under->count > 1)
      ImGui::SetTooltip("%u zones folded (first: %s)\nclick to zoom in", under->count,
                        iv.name.c_str());
    else
      ImGui::SetTooltip("%s\n%s at +%s", iv.name.c_str(),
                        views::format_duration_us(iv.end_us - iv.start_us).c_str(),
                        views::format_duration_us(iv.start_us).c_str());
  }
  if (clicked && io.MousePos.x >= cx) {
    if (under_marker) {
      ctx.nav.select(Selection{SelectionKind::kCollective,
                               under_marker->pg_name + ":" + std::to_string(under_marker->seq),
                               screen()});
      selected_marker_ = under_marker_index;
    } else if (under && under->count > 1) {
      view_.start_us = time_at(cx + under->x0);
      view_.end_us = std::max(view_.start_us + 1e-3, time_at(cx + under->x1));
    } else if (under) {
      selected_ = static_cast<int>(under->interval);
      selected_marker_ = -1;
      ctx.nav.select(Selection{SelectionKind::kZone, "#" + std::to_string(selected_), screen()});
    }
  }
  ImGui::EndChild();
}

std::unique_ptr<Panel> make_timeline_panel() {
  return std::make_unique<TimelinePanel>();
}

}  // namespace tlscope::gui
