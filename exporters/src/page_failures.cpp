// failures.html: compile failures (fail_type and reason, user frame) and analysis restarts.
#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void write_failures_page(ReportContext& ctx, const std::vector<CompileInfo>& compiles) {
  OccurrenceGroups failures, restarts;
  if (ctx.db.has_table("compilation_metrics")) {
    Statement s = ctx.db.prepare(
        "SELECT m.rank, m.compile_id, coalesce(f.path, ''), e.line, m.fail_type, "
        "coalesce(m.fail_reason, ''), coalesce(m.fail_user_frame_filename, 'N/A') || ':' || "
        "coalesce(m.fail_user_frame_lineno, 0) FROM compilation_metrics m "
        "JOIN events e ON e.id = m.event_id LEFT JOIN files f ON f.id = m.file_id "
        "WHERE m.fail_type IS NOT NULL AND m.fail_type <> '' ORDER BY m.event_id");
    while (s.step()) {
      failures.add(s.text(4) + "\x1f" + s.text(5) + "\x1f" + s.text(6),
                   {html_escape(s.text_view(4)), "<pre>" + html_escape(s.text_view(5)) + "</pre>",
                    html_escape(s.text_view(6))},
                   {s.opt_int64(0), s.text(1), s.text(2), s.int64(3), ""});
    }
    Statement r = ctx.db.prepare(
        "SELECT m.rank, m.compile_id, coalesce(f.path, ''), e.line, j.value "
        "FROM compilation_metrics m, json_each(CASE WHEN json_valid(m.restart_reasons) THEN "
        "m.restart_reasons ELSE '[]' END) j JOIN events e ON e.id = m.event_id "
        "LEFT JOIN files f ON f.id = m.file_id ORDER BY m.event_id");
    while (r.step()) {
      restarts.add(r.text(4), {html_escape(r.text_view(4))},
                   {r.opt_int64(0), r.text(1), r.text(2), r.int64(3), ""});
    }
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

  if (failures.total() > 0) {
    auto top = failures.sorted().front();
    ctx.findings.push_back("<span class=\"bad\"><a href=\"failures.html\">" +
                           plural(failures.total(), "compile") + " failed</a></span>, e.g. " +
                           top->columns_html[0] + " at " + top->columns_html[2] + ".");
  }
  int64_t no_metrics = 0;
  for (const CompileInfo& c : compiles) no_metrics += !c.has_metrics && c.frame_id.has_value();
  if (no_metrics > 0)
    ctx.findings.push_back(plural(no_metrics, "compile id") +
                           " never logged compilation_metrics (the process may have stopped "
                           "mid-compile).");
}

}  // namespace tlscope::exporters
