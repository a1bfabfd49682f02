// Timeline lanes, depths and per-frame layout.
#include "tlscope/views/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace tlscope::views {

Timeline build_timeline(std::vector<TimelineInterval> intervals, int max_depth) {
  Timeline t;
  t.intervals = std::move(intervals);
  const size_t depth_cap = static_cast<size_t>(std::max(0, max_depth));
  std::map<std::tuple<int32_t, int64_t, std::string>, std::vector<uint32_t>> by_lane;
  bool first = true;
  for (uint32_t i = 0; i < t.intervals.size(); ++i) {
    const auto& iv = t.intervals[i];
    if (!std::isfinite(iv.start_us) || !std::isfinite(iv.end_us) || iv.end_us < iv.start_us) {
      ++t.rejected;
      continue;
    }
    by_lane[{iv.run, iv.rank, iv.thread}].push_back(i);
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
    lane.run = std::get<0>(key);
    lane.rank = std::get<1>(key);
    lane.thread = std::get<2>(key);
    lane.first_row = t.rows;
    std::vector<double> open_ends;
    for (uint32_t id : ids) {
      const auto& iv = t.intervals[id];
      while (!open_ends.empty() && open_ends.back() <= iv.start_us) open_ends.pop_back();
      size_t depth = std::min(open_ends.size(), depth_cap);
      open_ends.push_back(iv.end_us);
      if (lane.depths.size() <= depth) {
        lane.depths.resize(depth + 1);
        lane.max_duration.resize(depth + 1, 0.0);
      }
      lane.depths[depth].push_back({iv.start_us, iv.end_us, id});
      lane.max_duration[depth] = std::max(lane.max_duration[depth], iv.end_us - iv.start_us);
    }
    for (const auto& zones : lane.depths) {
      std::vector<double> prefix;
      prefix.reserve(zones.size());
      double running = zones.empty() ? 0.0 : zones.front().end_us;
      for (const auto& z : zones) prefix.push_back(running = std::max(running, z.end_us));
      lane.end_prefix_max.push_back(std::move(prefix));
    }
    t.rows += static_cast<int>(lane.depths.size());
    t.lanes.push_back(std::move(lane));
  }
  return t;
}

namespace {

// First i in [from, to) with sorted[i] >= value. Gallops from `from` because the answer is
// usually near: a plain binary search over a million zones misses the cache on every probe.
size_t gallop(const std::vector<double>& sorted, size_t from, size_t to, double value) {
  size_t lo = from, step = 1;
  while (lo + step < to && sorted[lo + step] < value) {
    lo += step;
    step *= 2;
  }
  auto first = sorted.begin() + static_cast<std::ptrdiff_t>(lo);
  auto last = sorted.begin() + static_cast<std::ptrdiff_t>(std::min(lo + step + 1, to));
  return static_cast<size_t>(std::lower_bound(first, last, value) - sorted.begin());
}

}  // namespace

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
      const auto& prefix = lane.end_prefix_max[depth];
      const double min_us = viewport.min_zone_px / px_per_us;
      // Zones past `last` start after the view ends.
      const size_t last = static_cast<size_t>(
          std::upper_bound(zones.begin(), zones.end(), viewport.end_us,
                           [](double t, const TimelineZone& z) { return t < z.start_us; }) -
          zones.begin());
      TimelineItem pending;
      double pending_end_us = 0;
      bool has_pending = false;
      auto flush = [&]() {
        if (!has_pending) return;
        if (pending.count > 1) ++frame.folded_items;
        frame.items.push_back(pending);
        has_pending = false;
      };
      for (; it != zones.end() && it->start_us <= viewport.end_us; ++it) {
        ++frame.zones_visited;
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
          pending_end_us = std::max(pending_end_us, it->end_us);
          ++pending.count;
        } else {
          flush();
          pending = item;
          pending_end_us = it->end_us;
          has_pending = true;
        }
        // Skip ahead as Tracy does: every following zone that ends before the fold's end plus
        // min_zone_px starts within min_zone_px of it and is under 2 * min_zone_px wide (the
        // zones merged so far are narrow), so it joins the fold unvisited.
        if (it->start_us >= viewport.start_us) {
          const size_t next = static_cast<size_t>(it - zones.begin()) + 1;
          const size_t stop = gallop(prefix, next, std::max(next, last), pending_end_us + min_us);
          if (stop > next) {
            pending.count += static_cast<uint32_t>(stop - next);
            frame.zones_visible += stop - next;
            pending_end_us = std::max(pending_end_us, prefix[stop - 1]);
            pending.x1 = std::max(pending.x1, to_px(pending_end_us));
            it = zones.begin() + static_cast<std::ptrdiff_t>(stop - 1);
          }
        }
      }
      flush();
    }
  }
  return frame;
}

}  // namespace tlscope::views
