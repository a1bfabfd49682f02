// compile_time.html: where compile time goes. The split into Dynamo tracing, backend and cache
// work, the phase tree summed over the run as an icicle and a table, the costliest phases with
// the compiles they come from, and each costly compile's own icicle (views/compile_phases.hpp).
// Plain HTML and CSS: the icicle is positioned boxes, so it reads from file:// with no script.
#include <cstdio>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/compile_phases.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::exporters {

namespace {

constexpr int kRowPx = 20;

std::string seconds(double s) {
  return views::format_duration_us(s * 1e6);
}

std::string percent(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f%%", f * 100);
  return buf;
}

std::string icicle_html(const std::vector<views::PhaseTotal>& phases, std::string_view id) {
  const std::vector<views::IcicleCell> cells = views::icicle_layout(phases);
  if (cells.empty()) return "<p class=\"muted\">No timed phases.</p>\n";
  int64_t depth = 0;
  for (const views::IcicleCell& c : cells) depth = std::max(depth, c.depth);
  std::string h = "<div class=\"icicle\" id=\"";
  append_html_escaped(h, id);
  h += "\" style=\"height:" + std::to_string((depth + 1) * kRowPx) + "px\">";
  for (const views::IcicleCell& c : cells) {
    const views::PhaseTotal& p = phases[c.phase];
    h += "<div class=\"ph d" + std::to_string(c.depth % 5) + "\" style=\"left:" + percent(c.x0) +
         ";width:" + percent(c.x1 - c.x0) + ";top:" + std::to_string(c.depth * kRowPx) +
         "px\" title=\"";
    append_html_escaped(h, p.path + ": " + seconds(p.seconds) + " (self " +
                               seconds(p.self_seconds) + ", " + std::to_string(p.count) + "x)");
    h += "\">";
    append_html_escaped(h, p.name);
    h += "</div>";
  }
  return h + "</div>\n";
}

std::string tree_table(const std::vector<views::PhaseTotal>& phases) {
  std::string h =
      "<table class=\"phases\"><thead><tr><th>phase</th><th class=\"num\">time</th><th "
      "class=\"num\">self</th><th class=\"num\">spans</th></tr></thead><tbody>\n";
  for (const views::PhaseTotal& p : phases) {
    h += "<tr><td style=\"padding-left:" + std::to_string(8 + 16 * p.depth) + "px\">";
    append_html_escaped(h, p.name);
    h += "</td><td class=\"num\">" + seconds(p.seconds) + "</td><td class=\"num\">" +
         seconds(p.self_seconds) + "</td><td class=\"num\">" + std::to_string(p.count) +
         "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

}  // namespace

void write_compile_time_page(ReportContext& ctx) {
  // Held here: noted() returns a reference into the loaded result.
  const views::Result<views::CompilePhases> loaded = views::load_compile_phases(ctx.db);
  const views::CompilePhases& v = noted(ctx, "compile time", loaded);
  const views::CompileTimeSplit& s = v.split;
  std::string h = page_head("Compile time", "compile_time", 0);
  h += "<div class=\"cards\" id=\"compile-time-split\"><div class=\"card\"><b>" +
       seconds(s.total_s) + "</b>compile time (" + plural(s.compiles, "compile") +
       ")</div><div class=\"card\"><b>" + seconds(s.tracing_s) +
       "</b>Dynamo tracing and guards</div><div class=\"card\"><b>" + seconds(s.backend_s) +
       "</b>backend (AOT, Inductor)</div>";
  if (!s.from_metrics)
    h += "<div class=\"card\"><b>" + seconds(s.cache_s) + "</b>cache phases</div>";
  if (s.cache_saved_s)
    h += "<div class=\"card\"><b class=\"good\">" + seconds(*s.cache_saved_s) +
         "</b>saved by the remote cache</div>";
  h += "</div>\n";
  if (s.from_metrics)
    h += "<p class=\"muted\">The log has no timed phases (chromium events): the split is "
         "compilation_metrics' times.</p>\n";
  if (v.run.empty()) {
    ctx.site.write("compile_time.html", h + page_tail(0));
    return;
  }
  h += "<h2>Summed over the run</h2>\n" + icicle_html(v.run, "icicle-run") + tree_table(v.run);
  h += "<h2>Costliest phases</h2>\n<table id=\"top-phases\"><thead><tr><th>phase</th><th "
       "class=\"num\">time</th><th class=\"num\">spans</th><th>compiles that spent "
       "most</th></tr></thead><tbody>\n";
  for (const views::TopPhase& t : v.top) {
    h += "<tr><td>";
    append_html_escaped(h, t.name);
    h += "</td><td class=\"num\">" + seconds(t.seconds) + "</td><td class=\"num\">" +
         std::to_string(t.count) + "</td><td>";
    for (const auto& c : t.compiles)
      h += compile_link(c.file_id, c.rank, c.compile_id, 0) + " " + seconds(c.seconds) + " ";
    h += "</td></tr>\n";
  }
  h += "</tbody></table>\n<h2>Per compile</h2>\n";
  if (v.compile_count > v.compiles.size())
    h += "<p class=\"muted\">The " + std::to_string(v.compiles.size()) + " costliest of " +
         std::to_string(v.compile_count) + " compiles.</p>\n";
  for (size_t i = 0; i < v.compiles.size(); ++i) {
    const views::CompilePhaseTree& t = v.compiles[i];
    h += "<h3>" + compile_link(t.file_id, t.rank, t.compile_id, 0) + " " + seconds(t.seconds) +
         "</h3>\n" + icicle_html(t.phases, "icicle-" + std::to_string(i));
    h += "<details><summary>phases</summary>" + tree_table(t.phases) + "</details>\n";
  }
  ctx.site.write("compile_time.html", h + page_tail(0));
}

}  // namespace tlscope::exporters
