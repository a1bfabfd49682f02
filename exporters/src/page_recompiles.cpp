// recompiles.html: recompiles grouped by the guard that failed, with the input and the value that
// changed ("x size[0]: 4 -> 8").
#include "occurrence_groups.hpp"
#include "pages.hpp"

namespace tlscope::exporters {

void write_recompiles_page(ReportContext& ctx) {
  auto loaded = views::load_occurrence_groups(ctx.db, views::OccurrenceList::kRecompiles);
  const views::OccurrenceGroups& groups = noted(ctx, "recompiles", loaded);
  std::string intro = "<p>" + plural(groups.occurrence_count, "recompile") + " caused by " +
                      plural(static_cast<int64_t>(groups.group_count), "distinct failed guard") +
                      ". Each row is a guard that failed; expand it for the compiles it "
                      "triggered.</p>\n";
  write_group_pages(ctx, groups, "recompiles", "Recompiles", "recompiles", "recompiles", intro);
}

}  // namespace tlscope::exporters
