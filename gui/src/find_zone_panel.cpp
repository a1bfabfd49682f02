// Find zone (as in Tracy): search the timeline's zones by name; count, total, mean, median, min
// and max of their durations; a log-scale histogram, per rank on demand; a click on a bar lists
// its zones, and a click on one puts the timeline on it.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

#include "panel.hpp"
#include "timeline_scene.hpp"
#include "tlscope/views/time_format.hpp"
#include "tlscope/views/zone_search.hpp"

namespace tlscope::gui {
namespace {

constexpr size_t kBins = 40;
constexpr size_t kListed = 500;  // zones listed for one bar

class FindZonePanel : public Panel {
 public:
  FindZonePanel() : Panel(views::ScreenId::find_zone) {}

  void draw(ViewerSession& session) override;
  views::Status select(ViewerSession& session, const Selection& s) override;
  void draw_details(ViewerSession& session, const Selection& s) override;

 private:
  void search(ViewerSession& session);
  void stats_line(const char* what, const views::DurationStats& s);

  std::shared_ptr<TimelineScene> scene_;
  char text_[256] = "";
  std::string searched_;
  bool searched_once_ = false;
  bool per_rank_ = false;
  int bin_ = -1;
  views::ZoneSearch result_;
  std::vector<uint32_t> bin_zones_;
};

void FindZonePanel::search(ViewerSession& session) {
  auto scene = session.timeline_scene();
  if (scene == scene_ && searched_once_ && searched_ == text_) return;
  scene_ = std::move(scene);
  searched_ = text_;
  searched_once_ = true;
  result_ = views::search_zones(scene_->timeline, searched_, kBins);
  bin_ = -1;
  bin_zones_.clear();
}

void FindZonePanel::stats_line(const char* what, const views::DurationStats& s) {
  // Drawn as phrases that flow onto the next line as a whole (ImGui's wrapping breaks at a '.',
  // inside "4.00 us"), recorded as one line.
  const std::vector<std::string> phrases = {
      std::string(what) + ": " + std::to_string(s.count) + " zones,",
      "total " + views::format_duration_us(s.total_us) + ",",
      "mean " + views::format_duration_us(s.mean_us) + ",",
      "median " + views::format_duration_us(s.median_us) + ",",
      "min " + views::format_duration_us(s.min_us) + ",",
      "max " + views::format_duration_us(s.max_us)};
  std::string line;
  ImVec2 lo(FLT_MAX, FLT_MAX), hi(-FLT_MAX, -FLT_MAX);
  for (size_t i = 0; i < phrases.size(); ++i) {
    if (i) ui::same_line_if_fits(ImGui::CalcTextSize(phrases[i].c_str()).x);
    ImGui::TextUnformatted(phrases[i].c_str());
    line += (i ? " " : "") + phrases[i];
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    lo = ImVec2(std::min(lo.x, a.x), std::min(lo.y, a.y));
    hi = ImVec2(std::max(hi.x, b.x), std::max(hi.y, b.y));
  }
  if (UiDump* dump = current_dump())
    dump->add("stat", line, Rect{lo.x, lo.y, hi.x - lo.x, hi.y - lo.y});
}

void FindZonePanel::draw(ViewerSession& session) {
  ImGui::SetNextItemWidth(320);
  ImGui::InputTextWithHint("##zone_name", "zone name contains...", text_, sizeof text_);
  ImGui::SameLine();
  ImGui::Checkbox("per rank", &per_rank_);
  search(session);
  ui::record("search", searched_);
  const views::ZoneSearch& r = result_;
  if (r.stats.count == 0) {
    ui::text_disabled("label", "No zone matches \"" + searched_ + "\".");
    return;
  }
  stats_line("all ranks", r.stats);
  if (per_rank_)
    for (const auto& [rank, s] : r.per_rank)
      stats_line(rank < 0 ? "no rank" : ("rank " + std::to_string(rank)).c_str(), s);

  // The histogram: bars of equal width in log10(duration), height by count (log scale).
  const views::DurationHistogram& h = r.histogram;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float w = std::max(200.0f, ImGui::GetContentRegionAvail().x - 10), hgt = 160;
  ImGui::InvisibleButton("##histogram", ImVec2(w, hgt + 20));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + w, at.y + hgt), IM_COL32(30, 32, 38, 255));
  size_t peak = 1;
  for (size_t c : h.counts) peak = std::max(peak, c);
  const float bar_w = w / static_cast<float>(h.counts.size());
  const float log_peak = std::log10(static_cast<float>(peak) + 1);
  auto height_of = [&](size_t c) {
    return std::log10(static_cast<float>(c) + 1) / log_peak * (hgt - 4);
  };
  int hovered_bin = -1;
  for (size_t i = 0; i < h.counts.size(); ++i) {
    const float x0 = at.x + bar_w * static_cast<float>(i), x1 = x0 + bar_w - 1;
    if (hovered && ImGui::GetIO().MousePos.x >= x0 && ImGui::GetIO().MousePos.x < x1 + 1)
      hovered_bin = static_cast<int>(i);
    if (h.counts[i] == 0) continue;
    const ImU32 col =
        static_cast<int>(i) == bin_ ? IM_COL32(255, 200, 90, 255) : IM_COL32(90, 140, 210, 255);
    dl->AddRectFilled(ImVec2(x0, at.y + hgt - height_of(h.counts[i])), ImVec2(x1, at.y + hgt), col);
    ui::record("bar", views::format_duration_us(h.edge(i)) + " - " +
                          views::format_duration_us(h.edge(i + 1)) + ": " +
                          std::to_string(h.counts[i]));
  }
  if (per_rank_) {  // each rank's counts as a line over the bars
    int hue = 0;
    for (const auto& [rank, counts] : r.per_rank_counts) {
      float rr, gg, bb;
      ImGui::ColorConvertHSVtoRGB(static_cast<float>(hue++ % 12) / 12.0f, 0.6f, 0.95f, rr, gg, bb);
      const ImU32 col = ImGui::GetColorU32(ImVec4(rr, gg, bb, 1));
      for (size_t i = 1; i < counts.size(); ++i)
        dl->AddLine(ImVec2(at.x + bar_w * (static_cast<float>(i) - 0.5f),
                           at.y + hgt - height_of(counts[i - 1])),
                    ImVec2(at.x + bar_w * (static_cast<float>(i) + 0.5f),
                           at.y + hgt - height_of(counts[i])),
                    col, 1.5f);
    }
  }
  const std::string lo = views::format_duration_us(h.min_us),
                    hi = views::format_duration_us(h.max_us);
  dl->AddText(ImVec2(at.x, at.y + hgt + 3), IM_COL32(200, 200, 205, 255), lo.c_str());
  dl->AddText(ImVec2(at.x + w - ImGui::CalcTextSize(hi.c_str()).x, at.y + hgt + 3),
              IM_COL32(200, 200, 205, 255), hi.c_str());
  if (hovered_bin >= 0) {
    const size_t b = static_cast<size_t>(hovered_bin);
    ImGui::SetTooltip("%s - %s: %zu zones", views::format_duration_us(h.edge(b)).c_str(),
                      views::format_duration_us(h.edge(b + 1)).c_str(), h.counts[b]);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      bin_ = hovered_bin;
      bin_zones_ = views::zones_in_bin(scene_->timeline, r, b);
    }
  }

  // The zones of the bar clicked (or the longest of all), each a jump to the timeline.
  const std::vector<uint32_t>& list = bin_ >= 0 ? bin_zones_ : r.matches;
  ui::text("heading", bin_ >= 0 ? "Zones of the bar (" + std::to_string(list.size()) + ")"
                                : "Longest zones (" + std::to_string(list.size()) + ")");
  ImGui::BeginChild("##zones", ImVec2(0, 0), true);
  for (size_t k = 0; k < list.size() && k < kListed; ++k) {
    const auto& iv = scene_->timeline.intervals[list[k]];
    const std::string row = views::format_duration_us(iv.end_us - iv.start_us) + "  " + iv.name +
                            "  " + (iv.rank >= 0 ? "rank " + std::to_string(iv.rank) + " " : "") +
                            iv.thread + "  at +" + views::format_duration_us(iv.start_us);
    if (ui::selectable("row", row, false, 0, ("##z" + std::to_string(list[k])).c_str()))
      session.nav().open(Selection{SelectionKind::kZone, "#" + std::to_string(list[k]),
                                   views::ScreenId::collectives});
  }
  ImGui::EndChild();
}

views::Status FindZonePanel::select(ViewerSession& session, const Selection& s) {
  if (s.kind != SelectionKind::kZone) return Panel::select(session, s);
  std::snprintf(text_, sizeof text_, "%s", s.key.c_str());
  search(session);
  views::Status r;
  if (result_.stats.count == 0) r.fail("no zone named " + s.key);
  return r;
}

void FindZonePanel::draw_details(ViewerSession& session, const Selection& s) {
  if (s.kind == SelectionKind::kZone) {
    ui::text("details", "zones matching \"" + s.key + "\"");
    if (searched_once_) stats_line("all ranks", result_.stats);
    return;
  }
  Panel::draw_details(session, s);
}

}  // namespace

std::unique_ptr<Panel> make_find_zone_panel() {
  return std::make_unique<FindZonePanel>();
}

}  // namespace tlscope::gui
