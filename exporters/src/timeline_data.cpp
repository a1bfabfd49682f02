// Serialises the timeline view models for assets/timeline.js.
#include "timeline_data.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::exporters {

namespace {

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
  // Profiler spans of collectives ("nccl:all_reduce") wear their op's colour, as on the
  // collective lanes; the op colours are listed only when there are some.
  if (std::any_of(t.intervals.begin(), t.intervals.end(),
                  [](const views::TimelineInterval& iv) { return iv.op_zone; }))
    add_colours(data, views::kCollectiveKinds);
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
        b.cls =
            std::string(iv.op_zone ? views::style_of(static_cast<views::CollectiveKind>(iv.kind)).id
                                   : views::style_of(static_cast<views::PhaseKind>(iv.kind)).id);
        b.detail = "compile " + info.compile_id + "  " + info.cat;
        data.bars.push_back(std::move(b));
      }
    }
  }
  return data;
}

TimelineData collective_timeline_data(const views::CollectiveTimeline& c,
                                      const views::LaneFolding& folding, size_t max_bars) {
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
  for (const views::LaneGroup& g : folding.groups)
    data.groups.push_back(
        {g.label, g.outlier ? std::string(views::style_of(g.problem).id) : "", g.lanes});
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
  // A bar's label, class and detail are shared by every rank's bar of one collective: written
  // once in "styles", referred to by index from the bars.
  std::map<std::tuple<std::string_view, std::string_view, std::string_view>, size_t> style_of;
  std::vector<size_t> bar_style(data.bars.size());
  std::string styles;
  for (size_t i = 0; i < data.bars.size(); ++i) {
    const TimelineBar& b = data.bars[i];
    auto [it, inserted] = style_of.try_emplace({b.label, b.cls, b.detail}, style_of.size());
    bar_style[i] = it->second;
    if (!inserted) continue;
    styles += it->second ? ",\n[" : "[";
    append_json_string(styles, b.label);
    styles += ',';
    append_json_string(styles, b.cls);
    styles += ',';
    append_json_string(styles, b.detail);
    styles += ']';
  }
  out += "},\n\"styles\": [\n" + styles + "],\n\"bars\": [\n";
  for (size_t i = 0; i < data.bars.size(); ++i) {
    const TimelineBar& b = data.bars[i];
    if (i) out += ",\n";
    out += '[' + std::to_string(b.lane) + ',' + std::to_string(b.depth) + ',';
    append_json_fixed3(out, b.start);
    out += ',';
    append_json_fixed3(out, b.end);
    out += ',' + std::to_string(bar_style[i]) + ']';
  }
  // Links from a bar to the one before it (a collective's ranks in order) are the bulk: listed
  // by the later bar alone in "chained".
  std::string pairs, chained;
  for (const auto& [from, to] : data.links) {
    if (from + 1 == to) {
      chained += (chained.empty() ? "" : ",") + std::to_string(to);
      continue;
    }
    pairs += (pairs.empty() ? "[" : ",[") + std::to_string(from) + ',' + std::to_string(to) + ']';
  }
  out += "],\n\"links\": [" + pairs + "],\n\"chained\": [" + chained;
  out += "],\n\"markers\": [";
  for (size_t i = 0; i < data.markers.size(); ++i) {
    const TimelineMarker& m = data.markers[i];
    if (i) out += ",\n";
    out += '[' + std::to_string(m.lane) + ',';
    append_json_fixed3(out, m.at);
    out += ',';
    append_json_string(out, m.cls);
    out += ',';
    append_json_string(out, m.text);
    out += ']';
  }
  out += "],\n\"groups\": [";
  for (size_t i = 0; i < data.groups.size(); ++i) {
    const TimelineLaneGroup& g = data.groups[i];
    if (i) out += ",\n";
    out += '[';
    append_json_string(out, g.label);
    out += ',';
    append_json_string(out, g.cls);
    out += ",[";
    for (size_t k = 0; k < g.lanes.size(); ++k) {
      if (k) out += ',';
      out += std::to_string(g.lanes[k]);
    }
    out += "]]";
  }
  // The classes that are problems (views' list), so the page draws their links red without a
  // list of its own.
  out += "],\n\"problems\": [";
  bool first = true;
  for (const views::KindStyle& k : views::kProblemKinds) {
    if (!k.rgb) continue;  // "ok"
    if (!first) out += ',';
    first = false;
    append_json_string(out, k.id);
  }
  return out + "]};\n";
}

std::string timeline_host_html(std::string_view legend_html) {
  return "<div class=\"toolbar\"><button id=\"timeline-reset\" type=\"button\">Reset zoom</button>"
         "<span class=\"muted\">Wheel to zoom, drag to pan, Shift+wheel to scroll the lanes, "
         "click a bar to highlight what it is linked to.</span><span class=\"legend\">" +
         std::string(legend_html) + "</span></div>\n<div id=\"timeline\"></div>\n";
}

std::string lane_groups_html(const views::CollectiveTimeline& c,
                             const views::LaneFolding& folding) {
  if (folding.folded_groups() == 0) return "";
  std::string h = "<div id=\"lane-groups\" data-groups=\"" + std::to_string(folding.groups.size()) +
                  "\" data-folded=\"" + std::to_string(folding.folded_groups()) +
                  "\"><span class=\"muted\">" +
                  views::grouped_number(static_cast<int64_t>(c.lanes.size())) + " ranks on " +
                  views::grouped_number(static_cast<int64_t>(folding.groups.size())) +
                  " lanes: ranks that issued the same collectives at about the same times share "
                  "one; open a group (or click its label) to draw each rank.</span>\n";
  for (size_t g = 0; g < folding.groups.size(); ++g) {
    const views::LaneGroup& group = folding.groups[g];
    if (group.lanes.size() < 2) continue;  // a lane of its own: nothing to open
    h += "<details class=\"lane-group\" data-group=\"" + std::to_string(g) + "\"><summary>";
    append_html_escaped(h, group.label);
    h += "</summary><p>ranks ";
    append_html_escaped(h, views::rank_runs(group.ranks));
    h += "</p></details>\n";
  }
  return h + "</div>\n";
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
