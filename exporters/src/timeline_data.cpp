// Serialises the timeline view models for assets/timeline.js.
#include "timeline_data.hpp"

#include <algorithm>
#include <cstdio>

#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

void append_number(std::string& out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  out += buf;
}

std::string hex_colour(uint32_t rgb) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%06x", rgb & 0xffffffu);
  return buf;
}

template <typename Table>
void add_colours(TimelineData& data, const Table& table) {
  for (const views::KindStyle& k : table)
    if (k.rgb) data.colors.emplace_back(std::string(k.id), k.rgb);
}

}  // namespace

TimelineData phase_timeline_data(const views::PhaseTimeline& phases, size_t max_bars) {
  TimelineData data;
  add_colours(data, views::kPhaseKinds);
  const views::Timeline& t = phases.timeline;
  for (const views::TimelineLane& lane : t.lanes) {
    const int lane_index = static_cast<int>(data.lanes.size());
    data.lanes.push_back(views::lane_label(lane, phases.runs.runs.size()));
    for (size_t depth = 0; depth < lane.depths.size(); ++depth) {
      for (const views::TimelineZone& z : lane.depths[depth]) {
        if (data.bars.size() >= max_bars) {
          ++data.dropped;
          continue;
        }
        const views::TimelineInterval& iv = t.intervals[z.interval];
        const views::PhaseZone& info = phases.zones[z.interval];
        TimelineBar b;
        b.lane = lane_index;
        b.depth = static_cast<int>(depth);
        b.start = z.start_us;
        b.end = z.end_us;
        b.label = iv.name;
        b.cls = std::string(views::style_of(static_cast<views::PhaseKind>(iv.kind)).id);
        b.detail = "compile " + info.compile_id + "  " + info.cat;
        data.bars.push_back(std::move(b));
      }
    }
  }
  return data;
}

TimelineData collective_timeline_data(const views::CollectiveTimeline& c, size_t max_bars) {
  TimelineData data;
  add_colours(data, views::kCollectiveKinds);
  add_colours(data, views::kProblemKinds);
  for (const views::CollectiveLane& lane : c.lanes)
    data.lanes.push_back((c.runs.runs.size() > 1
                              ? "run " + std::to_string(lane.run + 1) + " \xC2\xB7 "
                              : std::string()) +
                         "rank " + std::to_string(lane.rank));
  std::vector<size_t> bar_of(c.bars.size(), SIZE_MAX);
  for (size_t i = 0; i < c.bars.size(); ++i) {
    if (data.bars.size() >= max_bars) {
      ++data.dropped;
      continue;
    }
    const views::CollectiveBar& cb = c.bars[i];
    TimelineBar b;
    b.lane = views::collective_lane(c, cb.run, cb.rank);
    b.start = cb.start_us;
    b.end = cb.end_us;
    b.label = views::bar_label(cb);
    b.cls = std::string(cb.problem != views::ProblemKind::none ? views::style_of(cb.problem).id
                                                               : views::style_of(cb.kind).id);
    b.detail = views::bar_detail(cb);
    bar_of[i] = data.bars.size();
    data.bars.push_back(std::move(b));
  }
  for (const views::CollectiveLink& l : c.links)
    if (bar_of[l.from] != SIZE_MAX && bar_of[l.to] != SIZE_MAX)
      data.links.emplace_back(bar_of[l.from], bar_of[l.to]);
  for (const views::ProblemMarker& m : c.markers)
    data.markers.push_back({views::collective_lane(c, m.run, m.rank), m.at_us,
                            std::string(views::style_of(m.kind).id), m.text});
  return data;
}

std::string timeline_js(const TimelineData& data) {
  std::string out = "window.TLSCOPE_TIMELINE = {\"lanes\": [";
  for (size_t i = 0; i < data.lanes.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, data.lanes[i]);
  }
  out += "],\n\"colors\": {";
  for (size_t i = 0; i < data.colors.size(); ++i) {
    if (i) out += ',';
    append_json_string(out, data.colors[i].first);
    out += ':';
    append_json_string(out, hex_colour(data.colors[i].second));
  }
  out += "},\n\"bars\": [\n";
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
    out += '[' + std::to_string(data.links[i].first) + ',' + std::to_string(data.links[i].second) +
           ']';
  }
  out += "],\n\"markers\": [";
  for (size_t i = 0; i < data.markers.size(); ++i) {
    const TimelineMarker& m = data.markers[i];
    if (i) out += ",\n";
    out += '[' + std::to_string(m.lane) + ',';
    append_number(out, m.at);
    out += ',';
    append_json_string(out, m.cls);
    out += ',';
    append_json_string(out, m.text);
    out += ']';
  }
  return out + "]};\n";
}

std::string timeline_host_html(std::string_view legend_html) {
  return "<div class=\"toolbar\"><button id=\"timeline-reset\" type=\"button\">Reset zoom</button>"
         "<span class=\"muted\">Wheel to zoom, drag to pan, click a bar to highlight what it is "
         "linked to.</span><span class=\"legend\">" +
         std::string(legend_html) + "</span></div>\n<div id=\"timeline\"></div>\n";
}

std::string timeline_legend_html(const TimelineData& data) {
  std::string h;
  auto label_of = [](std::string_view id) -> std::string_view {
    for (const auto& k : views::kPhaseKinds)
      if (k.id == id) return k.label;
    for (const auto& k : views::kCollectiveKinds)
      if (k.id == id) return k.label;
    for (const auto& k : views::kProblemKinds)
      if (k.id == id) return k.label;
    return id;
  };
  // Only the kinds that occur, so the legend explains what is on screen.
  for (const auto& [cls, rgb] : data.colors) {
    bool used = std::any_of(data.bars.begin(), data.bars.end(),
                            [&](const TimelineBar& b) { return b.cls == cls; }) ||
                std::any_of(data.markers.begin(), data.markers.end(),
                            [&](const TimelineMarker& m) { return m.cls == cls; });
    if (!used) continue;
    h += "<span><i style=\"background:" + hex_colour(rgb) + "\"></i>";
    append_html_escaped(h, label_of(cls));
    h += "</span>";
  }
  return h;
}

}  // namespace tlscope::exporters
