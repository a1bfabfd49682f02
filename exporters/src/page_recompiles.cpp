// recompiles.html: recompiles grouped by the guard that failed, with the shape change spelled out
// ("dim 0: 4 -> 8") when the guard is a size/stride mismatch.
#include <regex>
#include <set>

#include "occurrence_groups.hpp"
#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

// "0/0: tensor 'x' size mismatch ..." -> ("0/0", "tensor 'x' size mismatch ...").
std::pair<std::string, std::string> split_prior(const std::string& reason) {
  static const std::regex kPrefix(R"(^\s*(!?[0-9]+(?:/[0-9]+)*(?:_[0-9]+)?):\s+)");
  std::smatch m;
  if (std::regex_search(reason, m, kPrefix)) return {m[1].str(), m.suffix().str()};
  return {"", reason};
}

// The shape change a size or stride guard describes, or "" when the guard is something else.
std::string shape_change(const std::string& guard) {
  static const std::regex kMismatch(
      R"((size|stride) mismatch at index (\d+)\. expected (\S+?),? actual (\S+))");
  std::smatch m;
  if (!std::regex_search(guard, m, kMismatch)) return "";
  return m[1].str() + " of dim " + m[2].str() + ": " + m[3].str() + " \xE2\x86\x92 " + m[4].str();
}

}  // namespace

void write_recompiles_page(ReportContext& ctx) {
  OccurrenceGroups groups;
  std::set<std::pair<int64_t, std::string>> seen;  // (rank, compile id) with an artifact
  auto add = [&](std::optional<int64_t> rank, const std::string& cid, std::string file, int64_t line,
                 const std::string& reason) {
    auto [prior, guard] = split_prior(reason);
    groups.add(guard, {html_escape(guard), html_escape(shape_change(guard))},
               {rank, cid, std::move(file), line, prior.empty() ? "" : "previous compile " + prior});
  };
  if (ctx.db.has_table("artifacts")) {
    Statement s = ctx.db.prepare(
        "SELECT e.rank, e.compile_id, coalesce(f.path, ''), e.line, "
        "coalesce(r.value, CASE WHEN json_valid(p.text) AND json_type(p.text) = 'text' "
        "THEN json_extract(p.text, '$') ELSE p.text END) "
        "FROM artifacts a JOIN events e ON e.id = a.event_id "
        "LEFT JOIN payloads p ON p.id = a.payload_id LEFT JOIN files f ON f.id = e.file_id "
        "LEFT JOIN json_each(CASE WHEN json_valid(p.text) AND json_type(p.text) = 'array' "
        "THEN p.text ELSE '[]' END) r WHERE a.name = 'recompile_reasons' ORDER BY e.id, r.id");
    while (s.step()) {
      std::string reason = s.text(4);
      if (reason.empty() || reason == "[]") continue;
      seen.insert({s.opt_int64(0).value_or(INT64_MIN), s.text(1)});
      add(s.opt_int64(0), s.text(1), s.text(2), s.int64(3), reason);
    }
  }
  if (ctx.db.has_table("compilation_metrics")) {
    Statement s = ctx.db.prepare(
        "SELECT m.rank, m.compile_id, coalesce(f.path, ''), e.line, m.recompile_reason "
        "FROM compilation_metrics m JOIN events e ON e.id = m.event_id "
        "LEFT JOIN files f ON f.id = m.file_id WHERE m.kind = 'compilation_metrics' "
        "AND m.recompile_reason IS NOT NULL AND m.recompile_reason <> '' ORDER BY m.event_id");
    while (s.step()) {
      if (seen.count({s.opt_int64(0).value_or(INT64_MIN), s.text(1)})) continue;
      add(s.opt_int64(0), s.text(1), s.text(2), s.int64(3), s.text(4));
    }
  }
  std::string intro = "<p>" + plural(groups.total(), "failed guard") + " caused recompiles, in " +
                      plural(static_cast<int64_t>(groups.size()), "distinct guard") +
                      ". Each row is a guard that failed; expand it for the compiles it "
                      "triggered.</p>\n";
  write_group_pages(ctx, groups, "recompiles", "Recompiles", "recompiles", "recompiles",
                    {"failed guard", "what changed"}, intro);
  if (groups.total() > 0) {
    auto top = groups.sorted().front();
    ctx.findings.push_back("<a href=\"recompiles.html\">" + plural(groups.total(), "recompile") +
                           "</a>; the most frequent failed guard (" + std::to_string(top->count) +
                           "&times;): " + top->columns_html[0] + ".");
  }
}

}  // namespace tlscope::exporters
