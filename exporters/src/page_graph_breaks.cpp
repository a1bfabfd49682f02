// graph_breaks.html: graph breaks (analysis table graph_breaks) deduplicated by reason and user
// location, counted per rank; each row expands to its occurrences.
#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void write_graph_breaks_page(ReportContext& ctx) {
  OccurrenceGroups groups;
  Statement s = ctx.db.prepare(
      "SELECT g.file_id, g.rank, coalesce(g.compile_id, ''), coalesce(e.line, 0), "
      "coalesce(g.reason, ''), coalesce(g.user_file, ''), coalesce(g.user_line, 0), "
      "coalesce(g.frame, ''), coalesce(g.source, ''), coalesce(g.resume_compile_id, '') "
      "FROM graph_breaks g LEFT JOIN events e ON e.id = g.event_id ORDER BY g.id");
  while (s.step()) {
    std::string location = s.text(5).empty() ? std::string()
                                             : s.text(5) + ":" + std::to_string(s.int64(6));
    std::string detail = s.text(7).empty() ? "" : "in " + s.text(7);
    if (!s.text_view(9).empty()) detail += (detail.empty() ? "" : ", ") + ("resumes as " + s.text(9));
    groups.add(s.text(4) + "\x1f" + location,
               {html_escape(s.text_view(4)), html_escape(location), html_escape(s.text_view(8))},
               {s.int64(0), s.opt_int64(1), s.text(2), s.int64(3), detail});
  }
  if (!s.error().empty()) ctx.warnings.push_back("graph breaks: " + s.error());
  std::string intro = "<p>" + plural(groups.total(), "graph break") + " in " +
                      plural(static_cast<int64_t>(groups.size()), "distinct reason") +
                      ". Rows are grouped by reason and user location; expand a row for every "
                      "occurrence.</p>\n";
  write_group_pages(ctx, groups, "graph_breaks", "Graph breaks", "graph_breaks", "graph-breaks",
                    {"reason", "user location", "source"}, intro);
}

}  // namespace tlscope::exporters
