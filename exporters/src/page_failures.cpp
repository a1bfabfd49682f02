// failures.html: compile failures (analysis table failures); restarts.html: analysis restarts
// (restarts). Both grouped by reason and paginated.
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
  std::string intro = "<p>" + plural(failures.total(), "compile failure") + " in " +
                      plural(static_cast<int64_t>(failures.size()), "distinct failure") +
                      ". Dynamo also restarted analysis " + plural(restarts.total(), "time") +
                      " (graph breaks and other RestartAnalysis exceptions): see <a "
                      "href=\"restarts.html\">restarts</a>.</p>\n";
  write_group_pages(ctx, failures, "failures", "Compile failures", "failures", "failures",
                    {"fail type", "reason", "user frame"}, intro);
  write_group_pages(ctx, restarts, "restarts", "Restarts", "failures", "restarts",
                    {"restart reason"},
                    "<p>" + plural(restarts.total(), "restart") +
                        " of Dynamo's analysis, by reason. "
                        "<a href=\"failures.html\">Compile failures</a>.</p>\n");
}

}  // namespace tlscope::exporters
