// Rows and the per-frame draw list of the timeline panel.
#include "timeline_draw_list.hpp"

#include <algorithm>
#include <limits>

#include "tlscope/views/timeline_kinds.hpp"

namespace tlscope::gui {

TimelineRows layout_rows(const views::Timeline& timeline, const std::vector<uint8_t>& collapsed,
                         const std::vector<uint8_t>& hidden, float row_height, float lane_gap) {
  TimelineRows r;
  r.row_height = row_height;
  r.row_top.assign(static_cast<size_t>(timeline.rows), -1.0f);
  r.lane_top.assign(timeline.lanes.size(), -1.0f);
  float y = 0;
  for (size_t li = 0; li < timeline.lanes.size(); ++li) {
    if (li < hidden.size() && hidden[li]) continue;
    const views::TimelineLane& lane = timeline.lanes[li];
    const bool closed = li < collapsed.size() && collapsed[li];
    const size_t shown = closed ? std::min<size_t>(1, lane.depths.size()) : lane.depths.size();
    r.lane_top[li] = y;
    for (size_t d = 0; d < shown; ++d) {
      r.row_top[static_cast<size_t>(lane.first_row) + d] = y;
      y += row_height;
    }
    if (shown == 0) y += row_height;  // an empty lane still shows its label
    y += lane_gap;
  }
  r.height = y;
  return r;
}

uint32_t zone_colour(const views::TimelineInterval& iv) {
  if (iv.problem) return packed_rgb(views::style_of(views::ProblemKind::desync).rgb);
  if (views::kind_is_op(iv))
    return packed_rgb(
        views::kCollectiveKinds[std::min<size_t>(iv.kind, std::size(views::kCollectiveKinds) - 1)]
            .rgb);
  return packed_rgb(
      views::kPhaseKinds[std::min<size_t>(iv.kind, std::size(views::kPhaseKinds) - 1)].rgb);
}

uint32_t folded_colour() {
  return packed_rgb(0x6e7380);
}

void build_draw_list(const views::Timeline& timeline, const views::TimelineFrame& frame,
                     const TimelineRows& rows, float scroll_y, float view_height,
                     float min_label_px, TimelineDrawList& out) {
  out.clear();
  out.label_end.assign(static_cast<size_t>(std::max(0, timeline.rows)),
                       -std::numeric_limits<float>::infinity());
  const float h = rows.row_height;
  for (const views::TimelineItem& item : frame.items) {
    const float top = rows.row_top[static_cast<size_t>(item.row)];
    if (top < 0) continue;
    const float y0 = top - scroll_y + 1;
    const float y1 = y0 + h - 2;
    if (y1 < 0 || y0 >= view_height) continue;
    const views::TimelineInterval& iv = timeline.intervals[item.interval];
    DrawRect r;
    r.x0 = static_cast<float>(item.x0);
    r.x1 = std::max(r.x0 + 1.0f, static_cast<float>(item.x1));
    r.y0 = y0;
    r.y1 = y1;
    r.interval = item.interval;
    r.count = item.count;
    r.instant = item.count == 1 && iv.instant;
    if (item.count > 1) {
      r.x1 = std::max(r.x1, r.x0 + 3.0f);
      r.rgba = folded_colour();
      ++out.folded;
    } else {
      r.rgba = zone_colour(iv);
    }
    if (r.instant) {  // a tick a few pixels wide, centred on its time
      r.x0 -= 2;
      r.x1 = r.x0 + 4;
    }
    float& row_label_end = out.label_end[static_cast<size_t>(item.row)];
    if (r.x1 - r.x0 >= min_label_px && r.x0 >= row_label_end) {
      out.labelled.push_back(static_cast<uint32_t>(out.rects.size()));
      row_label_end = r.x1;
    }
    out.rects.push_back(r);
  }
}

}  // namespace tlscope::gui
