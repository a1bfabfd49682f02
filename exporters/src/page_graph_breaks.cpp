// graph_breaks.html: graph breaks deduplicated by (reason, user location) with counts per rank;
// each row expands to its occurrences. Sources: dynamo_graph_break_reason artifacts, and for
// older logs that lack them, the restart reasons of compilation_metrics.
#include <set>

#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

struct BreakText {
  std::string reason, location;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Splits a dynamo_graph_break_reason payload into its reason and user location.
BreakText parse_break(std::string_view text) {
  BreakText out;
  size_t pos = 0;
  bool first = true;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = trim(text.substr(pos, end - pos));
    constexpr std::string_view kAt = "Graph break in user code at ";
    constexpr std::string_view kReason = "Graph Break Reason: ";
    if (line.starts_with(kAt)) out.location = line.substr(kAt.size());
    else if (line.starts_with(kReason) && out.reason.empty()) out.reason = line.substr(kReason.size());
    else if (first && !line.empty()) out.reason = line;
    if (!line.empty()) first = false;
    pos = end + 1;
  }
  if (out.reason.empty()) out.reason = std::string(trim(text.substr(0, 200)));
  return out;
}

}  // namespace

void write_graph_breaks_page(ReportContext& ctx) {
  OccurrenceGroups groups;
  std::set<std::pair<int64_t, std::string>> frames_with_artifacts;  // (rank, "frame/fcid")
  if (ctx.db.has_table("artifacts")) {
    Statement s = ctx.db.prepare(
        "SELECT e.rank, e.compile_id, coalesce(f.path, ''), e.line, coalesce(p.text, ''), "
        "e.frame_id, e.frame_compile_id FROM artifacts a JOIN events e ON e.id = a.event_id "
        "LEFT JOIN payloads p ON p.id = a.payload_id LEFT JOIN files f ON f.id = e.file_id "
        "WHERE a.name = 'dynamo_graph_break_reason' ORDER BY e.id");
    while (s.step()) {
      BreakText b = parse_break(s.text_view(4));
      frames_with_artifacts.insert({s.opt_int64(0).value_or(-1),
                                    std::to_string(s.int64(5)) + "/" + std::to_string(s.int64(6))});
      groups.add("a\x1f" + b.reason + "\x1f" + b.location,
                 {html_escape(b.reason), html_escape(b.location), "artifact"},
                 {s.opt_int64(0), s.text(1), s.text(2), s.int64(3), s.text(4)});
    }
  }
  if (ctx.db.has_table("compilation_metrics")) {
    Statement s = ctx.db.prepare(
        "SELECT m.rank, m.compile_id, coalesce(f.path, ''), e.line, r.value, m.frame_id, "
        "m.frame_compile_id, coalesce(m.co_filename, '') || ':' || coalesce(m.co_firstlineno, '') "
        "FROM compilation_metrics m, json_each(CASE WHEN json_valid(m.restart_reasons) THEN "
        "m.restart_reasons ELSE '[]' END) r JOIN events e ON e.id = m.event_id "
        "LEFT JOIN files f ON f.id = m.file_id "
        "WHERE m.kind = 'compilation_metrics' ORDER BY m.event_id");
    while (s.step()) {
      std::string frame = std::to_string(s.int64(5)) + "/" + std::to_string(s.int64(6));
      if (frames_with_artifacts.count({s.opt_int64(0).value_or(-1), frame})) continue;
      std::string reason = s.text(4);
      groups.add("r\x1f" + reason, {html_escape(reason), html_escape(s.text_view(7)), "restart reason"},
                 {s.opt_int64(0), s.text(1), s.text(2), s.int64(3), ""});
    }
  }
  std::string intro = "<p>" + plural(groups.total(), "graph break") + " in " +
                      plural(static_cast<int64_t>(groups.size()), "distinct reason") +
                      ". Rows are grouped by reason and user location; expand a row for every "
                      "occurrence.</p>\n";
  write_group_pages(ctx, groups, "graph_breaks", "Graph breaks", "graph_breaks", "graph-breaks",
                    {"reason", "user location", "source"}, intro);
  if (groups.total() > 0) {
    auto top = groups.sorted().front();
    ctx.findings.push_back("<a href=\"graph_breaks.html\">" + plural(groups.total(), "graph break") +
                           "</a> (" + plural(static_cast<int64_t>(groups.size()), "distinct reason") +
                           "); the most frequent (" + std::to_string(top->count) + "&times;): " +
                           top->columns_html[0] + ".");
  }
}

}  // namespace tlscope::exporters
