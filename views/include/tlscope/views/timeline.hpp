// Timeline view model: lanes per (rank, thread or stream), zones nested by depth, and per-frame
// layout with Tracy-style culling (binary search on sorted starts) and folding of zones too
// narrow to see into one item that carries a count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tlscope::views {

// Where an interval came from, so a click can look it up.
enum class TimelineSource : uint8_t { phase, collective, synthetic };

// One closed interval as the caller queried it (a matched B/E pair, an X event, an instant, a
// collective).
struct TimelineInterval {
  int32_t run = 0;     // runs never share lanes (timeline_runs.hpp)
  int64_t rank = -1;   // -1 when the log has no rank
  std::string thread;  // thread, stream or any lane key within the rank
  std::string name;
  double start_us = 0;
  double end_us = 0;
  int64_t source_id = 0;  // chromium_events.id or an index into CollectiveTimeline::bars
  TimelineSource source = TimelineSource::phase;
  uint8_t kind = 0;      // PhaseKind or CollectiveKind (timeline_kinds.hpp), by source
  bool instant = false;  // a point in time (ph "i"): start == end, drawn as a mark
  bool problem = false;  // drawn red: a collective some finding names
  // A compile-phase lane's zone that is a collective op's profiler span ("nccl:all_reduce"):
  // kind is then a CollectiveKind, so it wears its op's colour, not "other phase".
  bool op_zone = false;
};

// Which table `kind` indexes: kCollectiveKinds for collective lanes and op zones.
inline bool kind_is_op(const TimelineInterval& iv) {
  return iv.source == TimelineSource::collective || iv.op_zone;
}

// Compact on purpose: a lane may hold millions of zones and each frame scans the visible ones.
struct TimelineZone {
  double start_us;
  double end_us;
  uint32_t interval;  // index into Timeline::intervals
};
static_assert(sizeof(TimelineZone) == 24);

struct TimelineLane {
  int32_t run = 0;
  int64_t rank = -1;
  std::string thread;
  int first_row = 0;  // rows above this lane (lanes stack; a lane takes one row per depth)
  std::vector<std::vector<TimelineZone>> depths;  // zones of each depth, sorted by start
  std::vector<double> max_duration;               // per depth: how far back a visible zone starts
  // Per depth, the running maximum of end times in start order: non-decreasing, so a binary
  // search finds how far a run of tiny zones extends without visiting each one.
  std::vector<std::vector<double>> end_prefix_max;
};

// Built once from the query results; laid out every frame.
struct Timeline {
  std::vector<TimelineInterval> intervals;
  std::vector<TimelineLane> lanes;  // sorted by (run, rank, thread)
  int rows = 0;
  double start_us = 0, end_us = 0;  // the extent of all intervals
  size_t rejected = 0;              // intervals with end < start or non-finite times, skipped
};

// Sorts lanes and assigns depths: an interval starting inside an open one nests one deeper.
// Intervals nested deeper than `max_depth` share the row of depth `max_depth`.
constexpr int kUnlimitedDepth = 1 << 30;
Timeline build_timeline(std::vector<TimelineInterval> intervals, int max_depth = kUnlimitedDepth);

struct TimelineViewport {
  double start_us = 0;
  double end_us = 1;
  double width_px = 1000;
  // Narrower zones fold with their neighbours that start within min_zone_px of the fold's end;
  // a fold may absorb a neighbour up to 2 * min_zone_px wide when it skips ahead in one jump.
  double min_zone_px = 3;
};

struct TimelineItem {
  int lane = 0;
  int depth = 0;
  int row = 0;            // lane.first_row + depth
  double x0 = 0, x1 = 0;  // pixels from the viewport's left edge, clamped to [-1, width+1]
  uint32_t interval = 0;  // the first zone's interval
  uint32_t count = 1;     // > 1 for a folded item
};

struct TimelineFrame {
  std::vector<TimelineItem> items;
  size_t zones_visible = 0;  // zones overlapping the viewport (folded ones included)
  size_t folded_items = 0;
  size_t zones_visited = 0;  // zones the layout looked at one by one (the rest were skipped)
};

TimelineFrame layout_timeline(const Timeline& timeline, const TimelineViewport& viewport);

}  // namespace tlscope::views
