// graph_breaks.html: graph breaks deduplicated by reason and user location, counted per rank;
// each row expands to its occurrences.
#include "occurrence_groups.hpp"
#include "pages.hpp"

namespace tlscope::exporters {

void write_graph_breaks_page(ReportContext& ctx) {
  auto loaded = views::load_occurrence_groups(ctx.db, views::OccurrenceList::kGraphBreaks);
  const views::OccurrenceGroups& groups = noted(ctx, "graph breaks", loaded);
  std::string intro = "<p>" + plural(groups.occurrence_count, "graph break") + " in " +
                      plural(static_cast<int64_t>(groups.group_count), "distinct reason") +
                      ". Rows are grouped by reason and user location; expand a row for every "
                      "occurrence.</p>\n";
  write_group_pages(ctx, groups, "graph_breaks", "Graph breaks", "graph_breaks", "graph-breaks",
                    intro);
}

}  // namespace tlscope::exporters
