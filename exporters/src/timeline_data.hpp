// The data file format read by assets/timeline.js (lanes, bars, links, markers, colours), filled
// from the views/ timeline models that the viewer draws too.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/collective_timeline.hpp"
#include "tlscope/views/lane_folding.hpp"
#include "tlscope/views/phase_timeline.hpp"

namespace tlscope::exporters {

struct TimelineBar {
  int lane = 0, depth = 0;
  double start = 0, end = 0;  // µs from the start of the lane's run
  std::string label, cls = "ok", detail;
};

struct TimelineMarker {
  int lane = 0;
  double at = 0;  // µs
  std::string cls, text;
};

// Lanes drawn as one while folded (views::LaneGroup); timeline.js draws the first lane's bars
// under the group's label until the group is opened.
struct TimelineLaneGroup {
  std::string label, cls;  // cls: the outlier's problem kind, "" for alike ranks
  std::vector<int> lanes;
};

struct TimelineData {
  std::vector<std::string> lanes;
  std::vector<TimelineBar> bars;
  std::vector<std::pair<size_t, size_t>> links;  // indices into bars
  std::vector<TimelineMarker> markers;
  std::vector<std::pair<std::string, uint32_t>> colors;  // bar cls -> 0xRRGGBB
  std::vector<TimelineLaneGroup> groups;                 // empty: every lane on its own
  size_t dropped = 0;                                    // bars left out past the cap
};

// The phase timeline's lanes and zones (every depth, instants included), at most `max_bars`.
TimelineData phase_timeline_data(const views::PhaseTimeline& phases, size_t max_bars);
// The collective lanes, bars, links, problem markers and lane groups, at most `max_bars` bars.
TimelineData collective_timeline_data(const views::CollectiveTimeline& collectives,
                                      const views::LaneFolding& folding, size_t max_bars);

// `window.TLSCOPE_TIMELINE = {...};` with every string JSON-escaped for a .js file.
std::string timeline_js(const TimelineData& data);

// The page fragment: toolbar, legend and the #timeline host that timeline.js fills.
std::string timeline_host_html(std::string_view legend_html);
// The lane groups as <details> toggles (id "lane-groups"): opening one draws each of its lanes.
std::string lane_groups_html(const views::CollectiveTimeline& collectives,
                             const views::LaneFolding& folding);
// A legend entry per colour of `data`, labelled from the kind tables.
std::string timeline_legend_html(const TimelineData& data);

}  // namespace tlscope::exporters
