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

void TimelinePanel::ensure(ViewerSession& session) {
  auto scene = session.timeline_scene();
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

void TimelinePanel::draw(ViewerSession& session) {
  ensure(session);
  draw_toolbar();
  if (scene_->timeline.lanes.empty()) {
    ui::text_disabled("label", "No compile phases or collectives in this database.");
    return;
  }
  draw_lanes(session);
}

// One frame's geometry of the lanes canvas and the pointer's state over it, shared by the pieces
// that draw it (draw_lanes calls them in drawing order: zones, links, markers, the measured
// range, then the labels over the label column).
struct LaneCanvas {
  ImDrawList* dl = nullptr;
  TimelineRows rows;
  ImVec2 top;          // screen position of row y = 0 (scrolled)
  ImVec2 win;          // the lanes child window's position
  float cx = 0;        // screen x of the view's start (right of the label column)
  float canvas_w = 0;  // pixels of the time axis
  float scroll = 0, view_h = 0;
  float base = 0;        // screen y of draw-list y 0
  bool hovered = false;  // the pointer is over the canvas
  bool clicked = false;  // a left click released without dragging
  double time_at(float x, const TimeRange& view) const {
    return view.start_us + (x - cx) / canvas_w * view.span();
  }
  float x_of(double us, const TimeRange& view) const {
    return cx + static_cast<float>((us - view.start_us) / view.span() * canvas_w);
  }
};

float TimelinePanel::label_column_width(float avail_w) const {
  // The label column fits the widest label shown with its "[+] " mark, within 45% of the panel
  // (the lanes keep the rest); a label still wider is cut around "...", whole in its tooltip.
  float label_w = 120.0f;
  for (size_t i = 0; i < scene_->timeline.lanes.size(); ++i)
    label_w = std::max(label_w, ImGui::CalcTextSize(("[+] " + shown_label(i)).c_str()).x +
                                    kLabelPadLeft + kLabelPadRight);
  return std::min(label_w, std::max(120.0f, avail_w * 0.45f));
}

void TimelinePanel::handle_canvas_input(LaneCanvas& lc, bool focused) {
  ImGuiIO& io = ImGui::GetIO();
  const double frac = std::clamp((io.MousePos.x - lc.cx) / lc.canvas_w, 0.0f, 1.0f);
  // Zoom at the cursor, pan, measure.
  if (lc.hovered && io.MouseWheel != 0.0f) {
    if (io.KeyShift)
      ImGui::SetScrollY(lc.scroll - io.MouseWheel * 3 * kRowHeight);
    else
      view_.zoom_at(frac, std::pow(0.8, io.MouseWheel));
  }
  if (focused && !io.WantTextInput) {
    const double step = view_.span() * 0.1;
    const double keyfrac = lc.hovered ? frac : 0.5;
    if (ImGui::IsKeyPressed('W')) view_.zoom_at(keyfrac, 0.8);
    if (ImGui::IsKeyPressed('S')) view_.zoom_at(keyfrac, 1.25);
    if (ImGui::IsKeyPressed('A') || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
      view_.pan(-step);
    if (ImGui::IsKeyPressed('D') || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
      view_.pan(step);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
      ImGui::SetScrollY(lc.scroll - 3 * kRowHeight);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
      ImGui::SetScrollY(lc.scroll + 3 * kRowHeight);
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f)) {
    view_.pan(-io.MouseDelta.x / lc.canvas_w * view_.span());
    ImGui::SetScrollY(lc.scroll - io.MouseDelta.y);
    dragged_ = true;
  }
  if (lc.hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
    measuring_ = true;
    range_a_ = range_b_ = lc.time_at(io.MousePos.x, view_);
  }
  if (measuring_) {
    range_b_ = lc.time_at(io.MousePos.x, view_);
    has_range_ = range_a_ != range_b_;
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Right)) measuring_ = false;
  }
  lc.clicked = lc.hovered && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !dragged_;
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) dragged_ = false;
}

const DrawRect* TimelinePanel::draw_zones(ViewerSession& session, const LaneCanvas& lc) {
  const views::Timeline& t = scene_->timeline;
  const ImGuiIO& io = ImGui::GetIO();
  // Layout and draw list: only what is inside the time range and the scrolled rows.
  const views::TimelineFrame frame =
      views::layout_timeline(t, {view_.start_us, view_.end_us, lc.canvas_w, 3});
  build_draw_list(t, frame, lc.rows, lc.scroll, lc.view_h, 28, list_);
  DrawnCounts& drawn = session.drawn();
  drawn.timeline_items = list_.rects.size();
  drawn.timeline_folded = list_.folded;
  drawn.timeline_zones = frame.zones_visible;

  const DrawRect* under = nullptr;
  for (const DrawRect& r : list_.rects) {
    const ImVec2 a(lc.cx + r.x0, lc.base + r.y0), b(lc.cx + r.x1, lc.base + r.y1);
    lc.dl->AddRectFilled(a, b, r.rgba);
    if (static_cast<int>(r.interval) == selected_ && r.count == 1)
      lc.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1),
                     IM_COL32(255, 255, 255, 255), 0, 0, 2);
    if (lc.hovered && io.MousePos.x >= a.x && io.MousePos.x < b.x && io.MousePos.y >= a.y &&
        io.MousePos.y < b.y)
      under = &r;
  }
  size_t recorded = 0;
  for (uint32_t i : list_.labelled) {
    const DrawRect& r = list_.rects[i];
    const std::string text =
        r.count > 1 ? std::to_string(r.count) + " zones" : t.intervals[r.interval].name;
    const float x0 = std::max(lc.cx + r.x0, lc.cx) + 3;
    const ImVec4 clip(x0, lc.base + r.y0, std::min(lc.cx + r.x1, lc.cx + lc.canvas_w) - 2,
                      lc.base + r.y1);
    lc.dl->AddText(nullptr, 0.0f, ImVec2(x0, lc.base + r.y0 + 1), IM_COL32(255, 255, 255, 255),
                   text.c_str(), nullptr, 0.0f, &clip);
    if (recorded++ < kMaxRecordedZones) ui::record(r.count > 1 ? "folded" : "zone", text);
  }
  return under;
}

const views::CollectiveBar* TimelinePanel::selected_bar() const {
  const views::Timeline& t = scene_->timeline;
  const views::CollectiveTimeline& c = scene_->collectives;
  const views::CollectiveBar* bar = nullptr;
  if (selected_ >= 0 &&
      t.intervals[static_cast<size_t>(selected_)].source == views::TimelineSource::collective)
    bar = &c.bars[static_cast<size_t>(t.intervals[static_cast<size_t>(selected_)].source_id)];
  if (selected_marker_ >= 0) {
    const auto& m = c.markers[static_cast<size_t>(selected_marker_)];
    const int at = views::find_collective_bar(c, m.pg_name, m.seq);
    if (at >= 0 && !bar) bar = &c.bars[static_cast<size_t>(at)];
  }
  return bar;
}

void TimelinePanel::draw_collective_links(const LaneCanvas& lc) {
  const views::CollectiveTimeline& c = scene_->collectives;
  const views::CollectiveBar* sel_bar = selected_bar();
  if (!sel_bar) return;
  // A bar's point: its rank's collectives lane, or the lane of its folded group's first rank.
  // (Looked up through the sorted collective lanes: a collective of 1,024 ranks has 1,024 bars.)
  auto collectives_lane = [&](int32_t run, int64_t rank) {
    const int l = views::collective_lane(c, run, rank);
    return l < 0 ? -1 : scene_->timeline_lane_of_collective_lane[static_cast<size_t>(l)];
  };
  auto bar_point = [&](const views::CollectiveBar& bar, ImVec2* p) {
    int lane = collectives_lane(bar.run, bar.rank);
    if (lane < 0) return false;
    if (lc.rows.lane_top[static_cast<size_t>(lane)] < 0) {
      const int g = scene_->lane_group[static_cast<size_t>(lane)];
      if (g < 0) return false;
      lane =
          collectives_lane(bar.run, scene_->folding.groups[static_cast<size_t>(g)].ranks.front());
      if (lane < 0 || lc.rows.lane_top[static_cast<size_t>(lane)] < 0) return false;
    }
    p->x = lc.x_of(bar.start_us, view_);
    p->y = lc.top.y + lc.rows.lane_top[static_cast<size_t>(lane)] + kRowHeight / 2;
    return true;
  };
  // The ranks' bars of the selected collective, top to bottom, joined by flow lines (red into and
  // out of a bar with a problem).
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
    lc.dl->AddLine(points[i - 1].first, points[i].first,
                   bad ? IM_COL32(255, 90, 90, 255) : IM_COL32(235, 235, 240, 220), 2.0f);
    lc.dl->AddCircleFilled(points[i].first, 3.0f, IM_COL32(235, 235, 240, 255));
    ++linked;
  }
  ui::record("link", bar_label(*sel_bar) + " of group " + sel_bar->pg_name + ": " +
                         std::to_string(linked) + " flow lines across ranks");
}

int TimelinePanel::draw_markers(const LaneCanvas& lc) {
  const views::CollectiveTimeline& c = scene_->collectives;
  const ImGuiIO& io = ImGui::GetIO();
  int under = -1;
  for (size_t i = 0; i < c.markers.size(); ++i) {
    const views::ProblemMarker& m = c.markers[i];
    if (m.at_us < view_.start_us || m.at_us > view_.end_us) continue;
    const int lane = lane_of_marker(m);
    if (lane < 0 || lc.rows.lane_top[static_cast<size_t>(lane)] < 0) continue;
    const float x = lc.x_of(m.at_us, view_);
    const float y = lc.top.y + lc.rows.lane_top[static_cast<size_t>(lane)];
    const ImU32 col = packed_rgb(views::style_of(m.kind).rgb);
    const bool selected = static_cast<int>(i) == selected_marker_;
    lc.dl->AddTriangleFilled(ImVec2(x - 7, y - 1), ImVec2(x + 7, y - 1), ImVec2(x, y + 11), col);
    lc.dl->AddTriangle(ImVec2(x - 7, y - 1), ImVec2(x + 7, y - 1), ImVec2(x, y + 11),
                       selected ? IM_COL32(255, 255, 255, 255) : IM_COL32(0, 0, 0, 200),
                       selected ? 2.0f : 1.0f);
    ui::record("marker", std::string(views::style_of(m.kind).label) + " on rank " +
                             std::to_string(m.rank) + " at " + views::format_duration_us(m.at_us) +
                             ": " + m.text);
    if (lc.hovered && std::fabs(io.MousePos.x - x) <= 7 && io.MousePos.y >= y - 2 &&
        io.MousePos.y <= y + 12)
      under = static_cast<int>(i);
  }
  return under;
}

void TimelinePanel::draw_measured_range(const LaneCanvas& lc) {
  if (!has_range_) return;
  const float x0 = lc.x_of(std::min(range_a_, range_b_), view_);
  const float x1 = lc.x_of(std::max(range_a_, range_b_), view_);
  lc.dl->AddRectFilled(ImVec2(x0, lc.win.y), ImVec2(x1, lc.win.y + lc.view_h),
                       IM_COL32(255, 210, 90, 40));
  const std::string d = views::format_duration_us(std::fabs(range_b_ - range_a_));
  lc.dl->AddText(ImVec2(x0 + 4, lc.win.y + 4), IM_COL32(255, 220, 120, 255), d.c_str());
}

int TimelinePanel::draw_lane_labels(const LaneCanvas& lc, std::string* tooltip) {
  const views::Timeline& t = scene_->timeline;
  const ImGuiIO& io = ImGui::GetIO();
  int clicked = -1;
  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const float y = lc.rows.lane_top[i];
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
    const ImVec2 at(lc.top.x + kLabelPadLeft, lc.top.y + y + 2);
    const std::string whole = mark + label;
    const std::string text =
        fit_text(whole, lc.cx - kLabelPadRight - at.x, whole.rfind(" \xC2\xB7 "));
    lc.dl->AddText(at, IM_COL32(225, 225, 230, 255), text.c_str());
    // What was drawn, where: a cut label says so, and the whole one follows as "lane"/"group".
    ui::record_at("lane-label", text, at);
    const bool over_label = io.MousePos.x >= lc.top.x && io.MousePos.x < lc.cx &&
                            io.MousePos.y >= lc.top.y + y &&
                            io.MousePos.y < lc.top.y + y + kRowHeight;
    if (over_label && ImGui::IsWindowHovered() && text != whole) *tooltip = label;
    lc.dl->AddLine(ImVec2(lc.top.x, lc.top.y + y - kLaneGap / 2),
                   ImVec2(lc.cx + lc.canvas_w, lc.top.y + y - kLaneGap / 2),
                   IM_COL32(70, 72, 80, 255));
    // The lane's own label names it in the dump (as in the report's data file); a folded
    // group's label is recorded beside it.
    ui::record("lane", scene_->lane_labels[i] + ": " + std::to_string(zones) + " zones" +
                           (collapsed_[i] ? " (collapsed)" : ""));
    if (label != scene_->lane_labels[i]) ui::record("group", label);
    if (lc.clicked && io.MousePos.x < lc.cx && io.MousePos.y >= lc.top.y + y &&
        io.MousePos.y < lc.top.y + y + kRowHeight)
      clicked = static_cast<int>(i);
  }
  return clicked;
}

void TimelinePanel::toggle_lane(size_t lane) {
  const int g = scene_->lane_group[lane];
  if (g >= 0 && scene_->lane_leads[lane])
    group_open_[static_cast<size_t>(g)] ^= 1;
  else
    collapsed_[lane] ^= 1;
}

void TimelinePanel::show_tooltip(const std::string& label, const DrawRect* under,
                                 int under_marker) const {
  const views::Timeline& t = scene_->timeline;
  if (!label.empty()) {
    ImGui::SetTooltip("%s", label.c_str());
  } else if (under_marker >= 0) {
    const views::ProblemMarker& m = scene_->collectives.markers[static_cast<size_t>(under_marker)];
    ImGui::SetTooltip("%s on rank %lld\n%s", std::string(views::style_of(m.kind).label).c_str(),
                      static_cast<long long>(m.rank), m.text.c_str());
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
}

void TimelinePanel::click_canvas(ViewerSession& session, const LaneCanvas& lc,
                                 const DrawRect* under, int under_marker) {
  if (!lc.clicked || ImGui::GetIO().MousePos.x < lc.cx) return;
  if (under_marker >= 0) {
    const views::ProblemMarker& m = scene_->collectives.markers[static_cast<size_t>(under_marker)];
    session.nav().select(
        Selection{SelectionKind::kCollective, m.pg_name + ":" + std::to_string(m.seq), screen()});
    selected_marker_ = under_marker;
  } else if (under && under->count > 1) {
    view_.start_us = lc.time_at(lc.cx + under->x0, view_);
    view_.end_us = std::max(view_.start_us + 1e-3, lc.time_at(lc.cx + under->x1, view_));
  } else if (under) {
    selected_ = static_cast<int>(under->interval);
    selected_marker_ = -1;
    session.nav().select(
        Selection{SelectionKind::kZone, "#" + std::to_string(selected_), screen()});
  }
}

void TimelinePanel::draw_lanes(ViewerSession& session) {
  const views::Timeline& t = scene_->timeline;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label_w = label_column_width(avail.x);
  const ImGuiStyle& style = ImGui::GetStyle();
  LaneCanvas lc;
  lc.canvas_w =
      std::max(60.0f, avail.x - label_w - style.ScrollbarSize - 2 * style.WindowPadding.x);
  // The ruler, outside the scrolling child: it stays put when the lanes scroll.
  const ImVec2 ruler_at = ImGui::GetCursorScreenPos();
  draw_timeline_ruler(ImGui::GetWindowDrawList(), ImVec2(ruler_at.x + label_w, ruler_at.y),
                      lc.canvas_w, view_);
  ImGui::Dummy(ImVec2(1, kRulerHeight));

  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const int g = scene_->lane_group[i];
    hidden_[i] = g >= 0 && !group_open_[static_cast<size_t>(g)] && !scene_->lane_leads[i];
  }
  lc.rows = layout_rows(t, collapsed_, hidden_, kRowHeight, kLaneGap);

  ImGui::BeginChild("##lanes", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
  if (scroll_to_lane_ >= 0) {
    ImGui::SetScrollY(std::max(0.0f, lc.rows.lane_top[static_cast<size_t>(scroll_to_lane_)] - 40));
    scroll_to_lane_ = -1;
  }
  lc.dl = ImGui::GetWindowDrawList();
  lc.top = ImGui::GetCursorScreenPos();
  lc.scroll = ImGui::GetScrollY();
  lc.view_h = ImGui::GetWindowHeight();
  lc.cx = lc.top.x + label_w;
  ImGui::InvisibleButton("##canvas", ImVec2(label_w + lc.canvas_w, std::max(lc.rows.height, 1.0f)),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  lc.hovered = ImGui::IsItemHovered();
  handle_canvas_input(lc, ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows));
  lc.base = lc.top.y + lc.scroll;
  lc.win = ImGui::GetWindowPos();

  lc.dl->PushClipRect(ImVec2(lc.cx, lc.win.y), ImVec2(lc.cx + lc.canvas_w, lc.win.y + lc.view_h),
                      true);
  const DrawRect* under = draw_zones(session, lc);
  draw_collective_links(lc);
  const int under_marker = draw_markers(lc);
  draw_measured_range(lc);
  lc.dl->PopClipRect();

  // Lane labels: a click collapses a lane or unfolds a rank group.
  std::string label_tooltip;  // the whole label under the pointer, when it was cut
  const int label_clicked = draw_lane_labels(lc, &label_tooltip);
  if (label_clicked >= 0) toggle_lane(static_cast<size_t>(label_clicked));
  show_tooltip(label_tooltip, under, under_marker);
  click_canvas(session, lc, under, under_marker);
  ImGui::EndChild();
}

std::unique_ptr<Panel> make_timeline_panel() {
  return std::make_unique<TimelinePanel>();
}

}  // namespace tlscope::gui
