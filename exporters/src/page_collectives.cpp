// collectives.html: the collective timeline (ranks as lanes, collectives as bars from issue to
// completion, the same collective linked across lanes, problem markers on the ranks involved)
// and the collective findings in words, all from views::load_collective_timeline, the model the
// viewer's timeline draws. Ranks that behave alike share a folded lane (views::LaneFolding), so
// a job of 1,024 ranks draws a few lanes until a group is opened.
#include <map>

#include "pages.hpp"
#include "parity_html.hpp"
#include "timeline_data.hpp"
#include "tlscope/exporters/html.hpp"
#include "torch_records_html.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxBars = 300000;

}  // namespace

void write_collectives_page(ReportContext& ctx) {
  views::Result<views::CollectiveTimeline> loaded =
      views::load_collective_timeline(ctx.db, ctx.shared.trace_runs.value);
  const views::CollectiveTimeline& c = loaded.value;
  // The runs' failure first: the bars were placed on what they read.
  const std::string& error =
      ctx.shared.trace_runs.ok() ? loaded.error : ctx.shared.trace_runs.error;
  if (!error.empty()) ctx.warnings.push_back("collective timeline: " + error);
  std::vector<std::string> problems;
  for (const views::CollectiveFinding& f : c.findings) {
    const char* cls = f.kind == "straggler" || f.kind == "bad_record" ? "warn" : "bad";
    std::string row = "<tr><td><span class=\"tag " + std::string(cls) + "\">";
    append_html_escaped(row, f.kind);
    row += "</span></td><td>";
    append_html_escaped(row, f.message);
    problems.push_back(row + "</td></tr>\n");
  }
  const views::LaneFolding folding = views::fold_collective_lanes(c);
  TimelineData data = collective_timeline_data(c, folding, kMaxBars);
  if (data.dropped)
    ctx.warnings.push_back("collective timeline shows the first " +
                           std::to_string(data.bars.size()) + " of " + std::to_string(c.records) +
                           " collectives");
  ctx.site.write("data/collectives.js", timeline_js(data));

  const int64_t total = c.records, groups = c.matched, timed_out = c.timed_out;
  std::map<std::string, int64_t> kind_count{
      {"desync", c.desyncs}, {"missing_collective", c.missing}, {"straggler", c.stragglers}};
  std::string h = page_head("Collectives", "collectives", 0);
  h += "<div class=\"cards\" id=\"collectives-summary\" data-records=\"" + std::to_string(total) +
       "\" data-groups=\"" + std::to_string(groups) + "\" data-desyncs=\"" +
       std::to_string(kind_count["desync"]) + "\" data-missing=\"" +
       std::to_string(kind_count["missing_collective"]) + "\" data-stragglers=\"" +
       std::to_string(kind_count["straggler"]) + "\" data-timed-out=\"" +
       std::to_string(timed_out) + "\">";
  auto card = [&](int64_t v, std::string_view label, std::string_view cls) {
    h += "<div class=\"card\"><b class=\"" + std::string(cls) + "\">" + std::to_string(v) + "</b>" +
         std::string(label) + "</div>";
  };
  card(total, "collective records", "");
  card(groups, "matched collectives", "");
  card(kind_count["desync"], "desyncs", kind_count["desync"] ? "bad" : "good");
  card(kind_count["missing_collective"], "missing",
       kind_count["missing_collective"] ? "bad" : "good");
  card(timed_out, "timed out", timed_out ? "bad" : "good");
  card(kind_count["straggler"], "stragglers", kind_count["straggler"] ? "warn" : "good");
  h += "</div>\n";
  if (total == 0)
    h += "<p>This log has no collective_op records (docs/collectives-format.md). Per-graph "
         "collective schedules, when present, are compared on the <a href=\"ranks.html\">Ranks</a> "
         "page.</p>\n";
  h += lane_groups_html(c, folding);
  h += timeline_host_html(timeline_legend_html(data));
  std::string table_open = "<table id=\"collective-problems\" data-count=\"" +
                           std::to_string(problems.size()) +
                           "\"><thead><tr><th>kind</th><th>finding</th></tr></thead><tbody>\n";
  h += "<h2>Problems (" + std::to_string(problems.size()) + ")</h2>\n" + table_open;
  for (size_t i = 0; i < problems.size() && i < ctx.options.rows_per_page; ++i) h += problems[i];
  h += "</tbody></table>\n";
  h += write_row_pages(ctx, "collective_problems", "Collective problems", "collectives",
                       "<p>Every collective finding (<a href=\"collectives.html\">timeline</a>)."
                       "</p>\n",
                       table_open, problems);
  h += collective_parity_html(ctx);
  h += collective_scheduling_html(ctx);
  h += page_tail(0, {"data/collectives.js", "assets/timeline.js"});
  ctx.site.write("collectives.html", h);
}

}  // namespace tlscope::exporters
