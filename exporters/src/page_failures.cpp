// failures.html: compile failures (analysis table failures) and analysis restarts (restarts).
#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void write_failures_page(ReportContext& ctx, const std::vector<CompileInfo>&) {
  OccurrenceGroups failures, restarts;
  Statement f = ctx.db.prepare(
      "SELECT x.file_id, x.rank, coalesce(x.compile_id, ''), coalesce(e.line, 0), "
      "coalesce(x.fail_type, ''), coalesce(x.fail_reason, ''), "
      "coalesce(x.user_file, 'N/A') || ':' || coalesce(x.user_line, 0) "
      "FROM failures x LEFT JOIN events e ON e.id = x.event_id ORDER BY x.id");
  while (f.step()) {
    failures.add(f.text(4) + "\x1f" + f.text(5) + "\x1f" + f.text(6),
                 {html_escape(f.text_view(4)), "<pre>" + html_escape(f.text_view(5)) + "</pre>",
                  html_escape(f.text_view(6))},
                 {f.int64(0), f.opt_int64(1), f.text(2), f.int64(3), ""});
  }
  Statement r = ctx.db.prepare(
      "SELECT x.file_id, x.rank, coalesce(x.compile_id, ''), coalesce(e.line, 0), "
      "coalesce(x.reason, ''), coalesce(x.attempt, 0) FROM restarts x "
      "LEFT JOIN events e ON e.id = x.event_id ORDER BY x.id");
  while (r.step()) {
    restarts.add(r.text(4), {html_escape(r.text_view(4))},
                 {r.int64(0), r.opt_int64(1), r.text(2), r.int64(3),
                  "restart " + std::to_string(r.int64(5) + 1)});
  }
  size_t shown = ctx.options.rows_per_page;
  std::string h = page_head("Failures and restarts", "failures", 0);
  h += "<h2>Compile failures (" + std::to_string(failures.total()) + ")</h2>\n";
  h += group_table_html(failures, failures.sorted(), 0, shown, "failures",
                        {"fail type", "reason", "user frame"});
  h += "<h2>Restarts (" + std::to_string(restarts.total()) + ")</h2>\n"
       "<p>Dynamo restarted analysis for these reasons (graph breaks and other "
       "RestartAnalysis exceptions).</p>\n";
  h += group_table_html(restarts, restarts.sorted(), 0, shown, "restarts", {"restart reason"});
  if (failures.size() > shown || restarts.size() > shown)
    h += "<p class=\"warn\">Only the " + std::to_string(shown) +
         " most frequent groups are shown.</p>\n";
  h += page_tail(0);
  ctx.site.write("failures.html", h);
}

}  // namespace tlscope::exporters
