// Timeline lanes, depths and per-frame layout.
#include "tlscope/views/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace tlscope::views {

Timeline build_timeline(std::vector<TimelineInterval> intervals) {
  Timeline t;
  t.intervals = std::move(intervals);
  std::map<std::pair<int64_t, std::string>, std::vector<uint32_t>> by_lane;
  bool first = true;
  for (uint32_t i = 0; i < t.intervals.size(); ++i) {
    const auto& iv = t.intervals[i];
    if (!std::isfinite(iv.start_us) || !std::isfinite(iv.end_us) || iv.end_us < iv.start_us) {
      ++t.rejected;
      continue;
    }
    by_lane[{iv.rank, iv.thread}].push_back(i);
    t.start_us = first ? iv.start_us : std::min(t.start_us, iv.start_us);
    t.end_us = first ? iv.end_us : std::max(t.end_us, iv.end_us);
    first = false;
  }
  for (auto& [key, ids] : by_lane) {
    // Parents before children: earlier start first, and the longer of two equal starts first.
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
      const auto& x = t.intervals[a];
      const auto& y = t.intervals[b];
      if (x.start_us != y.start_us) return x.start_us < y.start_us;
      if (x.end_us != y.end_us) return x.end_us > y.end_us;
      return a < b;
    });
    TimelineLane lane;
    lane.rank = key.first;
    lane.thread = key.second;
    lane.first_row = t.rows;
    std::vector<double> open_ends;
    for (uint32_t id : ids) {
      const auto& iv = t.intervals[id];
      while (!open_ends.empty() && open_ends.back() <= iv.start_us) open_ends.pop_back();
      size_t depth = open_ends.size();
      open_ends.push_back(iv.end_us);
      if (lane.depths.size() <= depth) {
        lane.depths.resize(depth + 1);
        lane.max_duration.resize(depth + 1, 0.0);
      }
      lane.depths[depth].push_back({iv.start_us, iv.end_us, id});
      lane.max_duration[depth] = std::max(lane.max_duration[depth], iv.end_us - iv.start_us);
    }
    t.rows += static_cast<int>(lane.depths.size());
    t.lanes.push_back(std::move(lane));
  }
  return t;
}

TimelineFrame layout_timeline(const Timeline& timeline, const TimelineViewport& viewport) {
  TimelineFrame frame;
  const double span = viewport.end_us - viewport.start_us;
  if (!(span > 0) || !(viewport.width_px > 0)) return frame;
  const double px_per_us = viewport.width_px / span;
  auto to_px = [&](double t) {
    double x = (t - viewport.start_us) * px_per_us;
    return std::clamp(x, -1.0, viewport.width_px + 1.0);
  };
  for (size_t li = 0; li < timeline.lanes.size(); ++li) {
    const TimelineLane& lane = timeline.lanes[li];
    for (size_t depth = 0; depth < lane.depths.size(); ++depth) {
      const auto& zones = lane.depths[depth];
      // No zone of this depth is longer than max_duration, so none starting earlier than
      // start - max_duration can reach into the view.
      const double earliest = viewport.start_us - lane.max_duration[depth];
      auto it = std::lower_bound(zones.begin(), zones.end(), earliest,
                                 [](const TimelineZone& z, double t) { return z.start_us < t; });
      TimelineItem pending;
      bool has_pending = false;
      auto flush = [&]() {
        if (!has_pending) return;
        if (pending.count > 1) ++frame.folded_items;
        frame.items.push_back(pending);
        has_pending = false;
      };
      for (; it != zones.end() && it->start_us <= viewport.end_us; ++it) {
        if (it->end_us < viewport.start_us) continue;
        ++frame.zones_visible;
        TimelineItem item;
        item.lane = static_cast<int>(li);
        item.depth = static_cast<int>(depth);
        item.row = lane.first_row + item.depth;
        item.x0 = to_px(it->start_us);
        item.x1 = to_px(it->end_us);
        item.interval = it->interval;
        const bool narrow = (it->end_us - it->start_us) * px_per_us < viewport.min_zone_px;
        if (!narrow) {
          flush();
          frame.items.push_back(item);
          continue;
        }
        // A narrow zone joins the pending fold if it starts within min_zone_px of its end.
        if (has_pending && item.x0 - pending.x1 < viewport.min_zone_px) {
          pending.x1 = std::max(pending.x1, item.x1);
          ++pending.count;
        } else {
          flush();
          pending = item;
          has_pending = true;
        }
      }
      flush();
    }
  }
  return frame;
}

}  // namespace tlscope::views
