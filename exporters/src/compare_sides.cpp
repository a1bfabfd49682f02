// Compile trees and timelines of the compare page (compare_sides.hpp). Every text from a log goes
// through html_escape; nothing here compares the runs: frames, pairs, times and differences are
// the model's.
#include "compare_sides.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::exporters {

namespace {

const char* status_class(views::FrameStatus s) {
  return views::frame_status_name(s);  // matched, only_a, only_b
}

std::string only_mark(views::FrameStatus s) {
  if (s == views::FrameStatus::only_a) return "<span class=\"only-mark\">only in A</span>";
  if (s == views::FrameStatus::only_b) return "<span class=\"only-mark\">only in B</span>";
  return "";
}

std::string frame_cell(const views::FrameMatch& f, int64_t line) {
  std::string where = f.file;
  if (line >= 0) where += ":" + std::to_string(line);
  return "<span class=\"fn\">" + html_escape(f.function.empty() ? "(no function)" : f.function) +
         "</span> <span class=\"muted\">" + html_escape(where) + "</span>";
}

std::string compile_cell(const std::optional<std::string>& id, int64_t rank,
                         const std::string& outcome, bool recompile) {
  if (!id) return "";
  std::string cell = rank >= 0 ? "rank " + std::to_string(rank) + " · " : "";
  cell += "<code>" + html_escape(*id) + "</code> " + html_escape(outcome);
  if (recompile) cell += " <span class=\"muted\">(recompile)</span>";
  return cell;
}

}  // namespace

void compare_compile_trees(std::string& h, const views::Comparison& c) {
  // The differences anchored to each frame and to each compile row (Difference::frame/compile).
  std::map<int64_t, std::vector<const views::Difference*>> of_frame, of_compile;
  // A difference found on several ranks is under each rank's row (Difference::compile_rows).
  for (const views::Difference& d : c.differences) {
    for (int64_t row : d.compile_rows) of_compile[row].push_back(&d);
    if (d.compile_rows.empty() && d.frame >= 0) of_frame[d.frame].push_back(&d);
  }
  size_t only_a = 0, only_b = 0;
  for (const views::FrameMatch& f : c.frames) {
    only_a += f.status == views::FrameStatus::only_a;
    only_b += f.status == views::FrameStatus::only_b;
  }
  h += "<h2 id=\"compile-trees\">Compile trees side by side</h2>\n<p class=\"muted\">Frames "
       "aligned by code location, each with its compiles in order (compile #k of A beside "
       "compile #k of B, per rank); what one run lacks is marked.</p>\n"
       "<table class=\"compare-trees\" id=\"compare-trees\" data-frames=\"" +
       std::to_string(c.frames.size()) + "\" data-only-a=\"" + std::to_string(only_a) +
       "\" data-only-b=\"" + std::to_string(only_b) +
       "\"><thead><tr><th>A</th><th>B</th><th>differences</th></tr></thead><tbody>\n";
  auto list = [](const std::vector<const views::Difference*>* ds) {
    if (!ds) return std::string();
    std::string out = "<ul class=\"compile-diffs\">";
    for (const views::Difference* d : *ds)
      out += "<li><span class=\"diff-kind\">" + html_escape(views::kind_info(d->kind).section) +
             "</span> " + html_escape(views::difference_text(*d)) + "</li>";
    return out + "</ul>";
  };
  auto find = [](const auto& m, int64_t k) {
    auto it = m.find(k);
    return it == m.end() ? nullptr : &it->second;
  };
  size_t next = 0;
  for (size_t i = 0; i < c.frames.size(); ++i) {
    const views::FrameMatch& f = c.frames[i];
    const auto frame = static_cast<int64_t>(i);
    h += "<tr class=\"tree-frame " + std::string(status_class(f.status)) + "\" data-frame=\"" +
         std::to_string(i) + "\"><td>" +
         (f.status == views::FrameStatus::only_b ? only_mark(f.status) : frame_cell(f, f.line_a)) +
         "</td><td>" +
         (f.status == views::FrameStatus::only_a ? only_mark(f.status) : frame_cell(f, f.line_b)) +
         "</td><td>" + list(find(of_frame, frame)) + "</td></tr>\n";
    for (; next < c.compiles.size() && c.compiles[next].frame == frame; ++next) {
      const views::CompilePair& p = c.compiles[next];
      const std::string mark = f.status == views::FrameStatus::matched ? only_mark(p.status) : "";
      h += "<tr class=\"tree-compile " + std::string(status_class(p.status)) +
           "\" data-compile=\"" + std::to_string(next) + "\"><td>" +
           (p.compile_a ? compile_cell(p.compile_a, p.rank_a, p.outcome_a, p.recompile_a) : mark) +
           "</td><td>" +
           (p.compile_b ? compile_cell(p.compile_b, p.rank_b, p.outcome_b, p.recompile_b) : mark) +
           "</td><td>" + list(find(of_compile, static_cast<int64_t>(next))) + "</td></tr>\n";
    }
  }
  h += "</tbody></table>\n";
}

void compare_timelines(std::string& h, const views::Comparison& c) {
  const double axis_us = std::max(c.timeline_a_us, c.timeline_b_us);
  h += "<h2 id=\"timelines\">Timelines</h2>\n";
  if (axis_us <= 0) {
    h += "<p class=\"muted\" id=\"timelines-none\">Neither log timed its compiles (no chromium "
         "phase events): no timeline to draw.</p>\n";
    return;
  }
  h += "<p class=\"muted\">Each run from its own start (0 s), both on one axis to " +
       html_escape(views::format_duration_us(axis_us)) +
       ": a bar is a compile, from its first to its last timed phase; hover for its name.</p>\n";
  constexpr double kWidth = 1000, kLabel = 90, kRow = 18, kAxis = 22;
  const double step = views::ruler_step_us(axis_us, 8);
  const std::vector<double> ticks = views::ruler_ticks_us(0, axis_us, step, 20);
  auto x_of = [&](double us) { return kLabel + (kWidth - kLabel - 10) * us / axis_us; };
  for (const bool side_b : {false, true}) {
    // Lanes: the ranks with a timed compile on this side, in order.
    std::set<int64_t> ranks;
    for (const views::CompilePair& p : c.compiles)
      if ((side_b ? p.start_b_us : p.start_a_us) >= 0) ranks.insert(side_b ? p.rank_b : p.rank_a);
    const std::vector<int64_t> lanes(ranks.begin(), ranks.end());
    const double height = kAxis + kRow * static_cast<double>(std::max<size_t>(1, lanes.size()));
    std::string bars;
    size_t count = 0;
    for (size_t k = 0; k < c.compiles.size(); ++k) {
      const views::CompilePair& p = c.compiles[k];
      const double start = side_b ? p.start_b_us : p.start_a_us;
      const double end = side_b ? p.end_b_us : p.end_a_us;
      if (start < 0) continue;
      const int64_t rank = side_b ? p.rank_b : p.rank_a;
      const auto lane = std::lower_bound(lanes.begin(), lanes.end(), rank) - lanes.begin();
      char geometry[160];
      std::snprintf(geometry, sizeof geometry,
                    "x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x_of(start),
                    kAxis + kRow * static_cast<double>(lane) + 2,
                    std::max(1.0, x_of(end) - x_of(start)), kRow - 4);
      const std::optional<std::string>& id = side_b ? p.compile_b : p.compile_a;
      bars += "<rect class=\"bar " + std::string(status_class(p.status)) + "\" data-compile=\"" +
              std::to_string(k) + "\" " + geometry + "><title>" + html_escape(p.subject) + " (" +
              html_escape(id.value_or("")) + ", " +
              html_escape(side_b ? p.outcome_b : p.outcome_a) +
              "): " + html_escape(views::format_duration_us(start)) + " to " +
              html_escape(views::format_duration_us(end)) + "</title></rect>\n";
      ++count;
    }
    std::string axis, labels;
    for (double t : ticks) {
      char tick[200];
      std::snprintf(tick, sizeof tick,
                    "<line class=\"tick\" x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\"/>"
                    "<text class=\"tick-label\" x=\"%.1f\" y=\"%.0f\">",
                    x_of(t), kAxis - 4, x_of(t), height, x_of(t), kAxis - 8);
      const std::string label = views::format_ruler_label(t, step);
      axis += tick + html_escape(label) + "</text>\n";
      labels += (labels.empty() ? "" : "|") + label;
    }
    for (size_t l = 0; l < lanes.size(); ++l) {
      char at[96];
      std::snprintf(at, sizeof at, "<text class=\"lane-label\" x=\"4\" y=\"%.1f\">",
                    kAxis + kRow * static_cast<double>(l) + kRow - 5);
      axis += at + html_escape(lanes[l] >= 0 ? "rank " + std::to_string(lanes[l]) : "process") +
              "</text>\n";
    }
    char box[96];
    std::snprintf(box, sizeof box, "viewBox=\"0 0 %.0f %.0f\"", kWidth, height);
    // data-ruler: the axis labels, "|"-separated, as the report's timelines give them to tests.
    h += std::string("<h3>") + (side_b ? "B" : "A") +
         "</h3>\n<svg class=\"compare-timeline\" id=\"timeline-" + (side_b ? "b" : "a") +
         "\" data-bars=\"" + std::to_string(count) + "\" data-ruler=\"" + html_escape(labels) +
         "\" xmlns=\"http://www.w3.org/2000/svg\" " + box + " role=\"img\">\n" + axis + bars +
         "</svg>\n";
    if (count == 0)
      h += std::string("<p class=\"muted\">") + (side_b ? "B" : "A") +
           "'s log timed none of its compiles.</p>\n";
  }
}

}  // namespace tlscope::exporters
