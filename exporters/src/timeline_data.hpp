// The data file format read by assets/timeline.js (lanes, bars, links), shared by the collective
// timeline and the compile-phase timeline.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tlscope::exporters {

struct TimelineBar {
  int lane = 0, depth = 0;
  double start = 0, end = 0;  // µs
  std::string label, cls = "ok", detail;
};

struct TimelineData {
  std::vector<std::string> lanes;
  std::vector<TimelineBar> bars;
  std::vector<std::pair<size_t, size_t>> links;  // indices into bars
};

// `window.TLSCOPE_TIMELINE = {...};` with every string JSON-escaped for a .js file.
std::string timeline_js(const TimelineData& data);

// The page fragment: toolbar, legend and the #timeline host that timeline.js fills.
std::string timeline_host_html(std::string_view legend_html);

}  // namespace tlscope::exporters
