// failures.html: compile failures; restarts.html: analysis restarts. Both grouped by reason and
// paginated.
#include "occurrence_groups.hpp"
#include "pages.hpp"

namespace tlscope::exporters {

void write_failures_page(ReportContext& ctx) {
  auto loaded_failures = views::load_occurrence_groups(ctx.db, views::OccurrenceList::kFailures);
  auto loaded_restarts = views::load_occurrence_groups(ctx.db, views::OccurrenceList::kRestarts);
  const views::OccurrenceGroups& failures = noted(ctx, "failures", loaded_failures);
  const views::OccurrenceGroups& restarts = noted(ctx, "restarts", loaded_restarts);
  std::string intro = "<p>" + plural(failures.occurrence_count, "compile failure") + " in " +
                      plural(static_cast<int64_t>(failures.group_count), "distinct failure") +
                      ". Dynamo also restarted analysis " +
                      plural(restarts.occurrence_count, "time") +
                      " (graph breaks and other RestartAnalysis exceptions): see <a "
                      "href=\"restarts.html\">restarts</a>.</p>\n";
  write_group_pages(ctx, failures, "failures", "Compile failures", "failures", "failures", intro);
  write_group_pages(ctx, restarts, "restarts", "Restarts", "failures", "restarts",
                    "<p>" + plural(restarts.occurrence_count, "restart") +
                        " of Dynamo's analysis, by reason. "
                        "<a href=\"failures.html\">Compile failures</a>.</p>\n");
}

}  // namespace tlscope::exporters
