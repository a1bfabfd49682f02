// collectives.html: the collective timeline (ranks as lanes, collectives as bars from issue to
// completion, the same collective linked across lanes; desyncs, hangs and stragglers coloured)
// and the collective findings in words. Reads the analysis tables collectives and findings.
#include <map>
#include <tuple>

#include "pages.hpp"
#include "timeline_data.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxBars = 300000;

// "[1, 3]" -> {1, 3}.
std::vector<int64_t> int_list(std::string_view json) {
  std::vector<int64_t> out;
  int64_t v = 0;
  bool in = false;
  for (char c : json) {
    if (c >= '0' && c <= '9') {
      v = v * 10 + (c - '0');
      in = true;
    } else {
      if (in) out.push_back(v);
      v = 0;
      in = false;
    }
  }
  if (in) out.push_back(v);
  return out;
}

using BarKey = std::tuple<std::string, int64_t, int64_t>;  // pg_name, seq, rank

}  // namespace

void write_collectives_page(ReportContext& ctx) {
  // Flags from the findings: the ranks at fault of each (group, seq).
  std::map<BarKey, std::string> flag;
  std::map<std::string, int64_t> kind_count;
  std::vector<std::string> problems;
  Statement f = ctx.db.prepare(
      "SELECT kind, coalesce(pg_name, ''), coalesce(seq, -1), coalesce(ranks, '[]'), message "
      "FROM findings WHERE kind IN ('desync', 'missing_collective', 'straggler', 'bad_record') "
      "ORDER BY id");
  while (f.step()) {
    std::string kind = f.text(0);
    ++kind_count[kind];
    for (int64_t r : int_list(f.text_view(3))) {
      std::string& fl = flag[{f.text(1), f.int64(2), r}];
      if (fl.empty() || kind == "desync") fl = kind == "missing_collective" ? "hang" : kind;
    }
    const char* cls = kind == "straggler" || kind == "bad_record" ? "warn" : "bad";
    std::string row = "<tr><td><span class=\"tag " + std::string(cls) + "\">";
    append_html_escaped(row, kind);
    row += "</span></td><td>";
    append_html_escaped(row, f.text_view(4));
    problems.push_back(row + "</td></tr>\n");
  }

  TimelineData data;
  std::map<int64_t, int> lane_of;
  Statement lanes =
      ctx.db.prepare("SELECT DISTINCT coalesce(rank, -1) FROM collectives ORDER BY 1");
  while (lanes.step()) {
    lane_of[lanes.int64(0)] = static_cast<int>(data.lanes.size());
    data.lanes.push_back("rank " + std::to_string(lanes.int64(0)));
  }
  int64_t total = ctx.db.scalar("SELECT count(*) FROM collectives");
  int64_t timed_out = 0;
  Statement s = ctx.db.prepare(
      "SELECT coalesce(rank, -1), coalesce(pg_name, ''), coalesce(pg_desc, ''), coalesce(seq, -1), "
      "coalesce(op, ''), coalesce(input_sizes, ''), coalesce(dtype, ''), coalesce(bytes, 0), "
      "coalesce(state, ''), coalesce(created_us, started_us, 0), "
      "coalesce(completed_us, started_us, created_us, 0) FROM collectives "
      "ORDER BY pg_name, seq, rank");
  std::pair<std::string, int64_t> prev_group{"", -2};
  while (s.step() && data.bars.size() < kMaxBars) {
    TimelineBar b;
    int64_t rank = s.int64(0);
    std::string pg = s.text(1), state = s.text(8);
    int64_t seq = s.int64(3);
    b.lane = lane_of[rank];
    b.start = s.real(9);
    b.end = std::max(b.start, s.real(10));
    b.label = s.text(4) + " #" + std::to_string(seq);
    auto it = flag.find({pg, seq, rank});
    b.cls = it != flag.end() && it->second != "bad_record" ? it->second : "ok";
    if (state == "timed_out") {
      ++timed_out;
      if (b.cls == "ok") b.cls = "hang";
    }
    b.detail = "pg " + pg + " (" + s.text(2) + ")  " + s.text(5) + " " + s.text(6) + "  " +
               std::to_string(s.int64(7)) + " B  " + state;
    // Bars of one (group, seq) are consecutive: link each to the previous rank's bar.
    if (prev_group == std::make_pair(pg, seq))
      data.links.emplace_back(data.bars.size() - 1, data.bars.size());
    prev_group = {pg, seq};
    data.bars.push_back(std::move(b));
  }
  if (static_cast<int64_t>(data.bars.size()) < total)
    ctx.warnings.push_back("collective timeline shows the first " +
                           std::to_string(data.bars.size()) + " of " + std::to_string(total) +
                           " collectives");
  ctx.site.write("data/collectives.js", timeline_js(data));

  int64_t groups = ctx.db.scalar("SELECT count(*) FROM collective_matches");
  std::string h = page_head("Collectives", "collectives", 0);
  h += "<div class=\"cards\" id=\"collectives-summary\" data-records=\"" + std::to_string(total) +
       "\" data-groups=\"" + std::to_string(groups) + "\" data-desyncs=\"" +
       std::to_string(kind_count["desync"]) + "\" data-missing=\"" +
       std::to_string(kind_count["missing_collective"]) + "\" data-stragglers=\"" +
       std::to_string(kind_count["straggler"]) + "\" data-timed-out=\"" +
       std::to_string(timed_out) + "\">";
  auto card = [&](int64_t v, std::string_view label, std::string_view cls) {
    h += "<div class=\"card\"><b class=\"" + std::string(cls) + "\">" + std::to_string(v) + "</b>" +
         std::string(label) + "</div>";
  };
  card(total, "collective records", "");
  card(groups, "matched collectives", "");
  card(kind_count["desync"], "desyncs", kind_count["desync"] ? "bad" : "good");
  card(kind_count["missing_collective"], "missing",
       kind_count["missing_collective"] ? "bad" : "good");
  card(timed_out, "timed out", timed_out ? "bad" : "good");
  card(kind_count["straggler"], "stragglers", kind_count["straggler"] ? "warn" : "good");
  h += "</div>\n";
  if (total == 0)
    h += "<p>This log has no collective_op records (docs/collectives-format.md). Per-graph "
         "collective schedules, when present, are compared on the <a href=\"ranks.html\">Ranks</a> "
         "page.</p>\n";
  h += timeline_host_html(
      "<span><i style=\"background:#6b8fd6\"></i>ok</span><span><i style=\"background:#d63b3b\">"
      "</i>desync</span><span><i style=\"background:#8e24aa\"></i>hang / missing</span><span><i "
      "style=\"background:#e59a1c\"></i>straggler</span>");
  std::string table_open = "<table id=\"collective-problems\" data-count=\"" +
                           std::to_string(problems.size()) +
                           "\"><thead><tr><th>kind</th><th>finding</th></tr></thead><tbody>\n";
  h += "<h2>Problems (" + std::to_string(problems.size()) + ")</h2>\n" + table_open;
  for (size_t i = 0; i < problems.size() && i < ctx.options.rows_per_page; ++i) h += problems[i];
  h += "</tbody></table>\n";
  h += write_row_pages(ctx, "collective_problems", "Collective problems", "collectives",
                       "<p>Every collective finding (<a href=\"collectives.html\">timeline</a>)."
                       "</p>\n",
                       table_open, problems);
  h += page_tail(0, {"data/collectives.js", "assets/timeline.js"});
  ctx.site.write("collectives.html", h);
}

}  // namespace tlscope::exporters
