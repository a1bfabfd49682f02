// Serialises timeline lanes and bars for assets/timeline.js.
#include "timeline_data.hpp"

#include <cstdio>

#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

void append_number(std::string& out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  out += buf;
}

}  // namespace

std::string timeline_js(const TimelineData& data) {
  std::string out = "window.TLSCOPE_TIMELINE = {\"lanes\": [";
  for (size_t i = 0; i < data.lanes.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, data.lanes[i]);
  }
  out += "],\n\"bars\": [\n";
  for (size_t i = 0; i < data.bars.size(); ++i) {
    const TimelineBar& b = data.bars[i];
    if (i) out += ",\n";
    out += '[' + std::to_string(b.lane) + ',' + std::to_string(b.depth) + ',';
    append_number(out, b.start);
    out += ',';
    append_number(out, b.end);
    out += ',';
    append_json_string(out, b.label);
    out += ',';
    append_json_string(out, b.cls);
    out += ",0,";
    append_json_string(out, b.detail);
    out += ']';
  }
  out += "],\n\"links\": [";
  for (size_t i = 0; i < data.links.size(); ++i) {
    if (i) out += ',';
    out += '[' + std::to_string(data.links[i].first) + ',' + std::to_string(data.links[i].second) + ']';
  }
  return out + "]};\n";
}

std::string timeline_host_html(std::string_view legend_html) {
  return "<div class=\"toolbar\"><button id=\"timeline-reset\" type=\"button\">Reset zoom</button>"
         "<span class=\"muted\">Wheel to zoom, drag to pan, click a bar to highlight what it is "
         "linked to.</span><span class=\"legend\">" +
         std::string(legend_html) + "</span></div>\n<div id=\"timeline\"></div>\n";
}

}  // namespace tlscope::exporters
