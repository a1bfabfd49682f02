// recompiles.html: recompiles (analysis table recompiles) grouped by the guard that failed, with
// the input and the value that changed ("x size[0]: 4 -> 8").
#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

void write_recompiles_page(ReportContext& ctx) {
  OccurrenceGroups groups;
  Statement s = ctx.db.prepare(
      "SELECT r.file_id, r.rank, coalesce(r.compile_id, ''), coalesce(e.line, 0), "
      "coalesce(r.reason, ''), coalesce(r.guard_input, ''), coalesce(r.guard_property, ''), "
      "r.guard_index, coalesce(r.expected, ''), coalesce(r.actual, ''), "
      "coalesce(r.prev_compile_id, ''), coalesce(r.frame, '') "
      "FROM recompiles r LEFT JOIN events e ON e.id = r.event_id ORDER BY r.id");
  while (s.step()) {
    std::string change;
    if (!s.text_view(5).empty() || !s.text_view(8).empty()) {
      change = s.text(5);
      if (!s.text_view(6).empty()) change += " " + s.text(6);
      if (!s.is_null(7)) change += "[" + std::to_string(s.int64(7)) + "]";
      change += ": " + s.text(8) + " \xE2\x86\x92 " + s.text(9);
    }
    std::string detail = s.text(11).empty() ? "" : "frame " + s.text(11);
    if (!s.text_view(10).empty()) detail += (detail.empty() ? "" : ", ") + ("guard of " + s.text(10));
    groups.add(s.text(4), {html_escape(s.text_view(4)), html_escape(change)},
               {s.int64(0), s.opt_int64(1), s.text(2), s.int64(3), detail});
  }
  if (!s.error().empty()) ctx.warnings.push_back("recompiles: " + s.error());
  std::string intro = "<p>" + plural(groups.total(), "recompile") + " caused by " +
                      plural(static_cast<int64_t>(groups.size()), "distinct failed guard") +
                      ". Each row is a guard that failed; expand it for the compiles it "
                      "triggered.</p>\n";
  write_group_pages(ctx, groups, "recompiles", "Recompiles", "recompiles", "recompiles",
                    {"failed guard", "what changed"}, intro);
}

}  // namespace tlscope::exporters
