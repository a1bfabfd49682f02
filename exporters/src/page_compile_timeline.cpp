// compile_timeline.html: compile phases from chromium_event records (dynamo, backend_compile,
// inductor_compile, ...) drawn by timeline.js from data/compile_timeline.js. The lanes, depths
// and instants come from views::load_phase_timeline, the model the viewer's timeline draws.
#include "pages.hpp"
#include "timeline_data.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {
constexpr size_t kMaxBars = 200000;
}

void write_compile_timeline_page(ReportContext& ctx) {
  const views::TraceRuns& runs = ctx.shared.trace_runs.value;
  views::Result<views::PhaseTimeline> loaded = views::load_phase_timeline(ctx.db, runs);
  const views::PhaseTimeline& phases = loaded.value;
  // The runs' failure first: the phases were placed on what they read.
  const std::string& error =
      ctx.shared.trace_runs.ok() ? loaded.error : ctx.shared.trace_runs.error;
  if (!error.empty()) ctx.warnings.push_back("compile timeline: " + error);
  TimelineData data = phase_timeline_data(phases, kMaxBars);
  if (data.dropped)
    ctx.warnings.push_back("compile timeline shows the first " + std::to_string(data.bars.size()) +
                           " of " + std::to_string(data.bars.size() + data.dropped) + " phases");
  ctx.site.write("data/compile_timeline.js", timeline_js(data));
  std::string h = page_head("Compile timeline", "compile_timeline", 0);
  h += "<p id=\"phase-count\" data-count=\"" + std::to_string(phases.phases) +
       "\" data-instants=\"" + std::to_string(phases.instants) + "\" data-lanes=\"" +
       std::to_string(data.lanes.size()) + "\">" + plural(phases.phases, "compile phase") +
       " and " + plural(phases.instants, "instant event") +
       " from chromium_event records, nested as they ran, one lane per rank and thread";
  if (runs.runs.size() > 1)
    h += "; the files come from " + std::to_string(runs.runs.size()) +
         " runs, each timed from its own start";
  h += ".</p>\n";
  if (phases.unmatched)
    h += "<p class=\"muted\" id=\"phase-unmatched\" data-count=\"" +
         std::to_string(phases.unmatched) + "\">" + plural(phases.unmatched, "begin or end event") +
         " without a partner not drawn.</p>\n";
  h += timeline_host_html(timeline_legend_html(data));
  h += page_tail(0, {"data/compile_timeline.js", "assets/timeline.js"});
  ctx.site.write("compile_timeline.html", h);
}

}  // namespace tlscope::exporters
