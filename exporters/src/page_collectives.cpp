// collectives.html: the collective timeline (ranks as lanes, collectives as bars from issue to
// completion, matched collectives linked across lanes, desyncs, hangs and stragglers coloured)
// and a table of every problem found.
#include <map>

#include "collective_match.hpp"
#include "pages.hpp"
#include "timeline_data.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxBars = 300000;

std::string problem_row(const CollectiveSet& set, const CollectiveGroup& g) {
  std::string kinds, ranks, detail;
  if (g.desync) kinds += "<span class=\"tag bad\">desync</span>";
  if (g.hang) kinds += "<span class=\"tag bad\">hang</span>";
  if (!g.missing_ranks.empty()) {
    kinds += "<span class=\"tag bad\">missing</span>";
    detail += "never issued by rank";
    for (int64_t r : g.missing_ranks) detail += " " + std::to_string(r);
    detail += ". ";
  }
  if (g.straggler) kinds += "<span class=\"tag warn\">straggler</span>";
  for (size_t m : g.members) {
    const CollectiveRecord& r = set.records[m];
    if (r.flag == "ok") continue;
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(r.rank);
    detail += "rank " + std::to_string(r.rank) + ": " + r.note + ". ";
  }
  const CollectiveRecord& first = set.records[g.members.front()];
  return "<tr><td>" + kinds + "</td><td>" + html_escape(g.pg_name) + " " +
         html_escape(first.pg_desc) + "</td><td class=\"num\">" + std::to_string(g.seq) +
         "</td><td>" + html_escape(first.op) + "</td><td>" + ranks + "</td><td>" +
         html_escape(detail) + "</td></tr>\n";
}

}  // namespace

void write_collectives_page(ReportContext& ctx) {
  CollectiveSet set = load_collectives(ctx.db);
  TimelineData data;
  std::map<int64_t, int> lane_of;
  for (const CollectiveRecord& r : set.records) lane_of.emplace(r.rank, 0);
  for (auto& [rank, lane] : lane_of) {
    lane = static_cast<int>(data.lanes.size());
    data.lanes.push_back("rank " + std::to_string(rank));
  }
  std::vector<size_t> bar_of(set.records.size(), SIZE_MAX);
  for (size_t i = 0; i < set.records.size() && data.bars.size() < kMaxBars; ++i) {
    const CollectiveRecord& r = set.records[i];
    TimelineBar b;
    b.lane = lane_of[r.rank];
    b.start = r.created;
    b.end = r.completed;
    b.label = r.op + " #" + std::to_string(r.seq);
    b.cls = r.flag;
    b.detail = "pg " + r.pg_name + " (" + r.pg_desc + ")  " + r.sizes + " " + r.dtype + "  " +
               std::to_string(r.bytes) + " B  " + r.state + (r.note.empty() ? "" : "\n" + r.note);
    bar_of[i] = data.bars.size();
    data.bars.push_back(std::move(b));
  }
  for (const CollectiveGroup& g : set.groups)
    for (size_t k = 1; k < g.members.size(); ++k)
      if (bar_of[g.members[k - 1]] != SIZE_MAX && bar_of[g.members[k]] != SIZE_MAX)
        data.links.emplace_back(bar_of[g.members[k - 1]], bar_of[g.members[k]]);
  if (data.bars.size() < set.records.size())
    ctx.warnings.push_back("collective timeline shows the first " + std::to_string(data.bars.size()) +
                           " of " + std::to_string(set.records.size()) + " collectives");
  ctx.site.write("data/collectives.js", timeline_js(data));

  std::string h = page_head("Collectives", "collectives", 0);
  h += "<div class=\"cards\" id=\"collectives-summary\" data-records=\"" +
       std::to_string(set.records.size()) + "\" data-groups=\"" + std::to_string(set.groups.size()) +
       "\" data-desyncs=\"" + std::to_string(set.desyncs) + "\" data-hangs=\"" +
       std::to_string(set.hangs) + "\" data-missing=\"" + std::to_string(set.missing) +
       "\" data-stragglers=\"" + std::to_string(set.stragglers) + "\">";
  auto card = [&](int64_t v, std::string_view label, std::string_view cls) {
    h += "<div class=\"card\"><b class=\"" + std::string(cls) + "\">" + std::to_string(v) + "</b>" +
         std::string(label) + "</div>";
  };
  card(static_cast<int64_t>(set.records.size()), "collective records", "");
  card(static_cast<int64_t>(set.groups.size()), "matched collectives", "");
  card(set.desyncs, "desyncs", set.desyncs ? "bad" : "good");
  card(set.hangs, "hangs", set.hangs ? "bad" : "good");
  card(set.missing, "with missing ranks", set.missing ? "bad" : "good");
  card(set.stragglers, "stragglers", set.stragglers ? "warn" : "good");
  h += "</div>\n";
  if (set.records.empty()) {
    h += "<p>This log has no collective_op records (see docs/collectives-format.md). Per-graph "
         "collective schedules, when present, are compared on the <a href=\"ranks.html\">Ranks</a> "
         "page.</p>\n";
  }
  h += timeline_host_html(
      "<span><i style=\"background:#6b8fd6\"></i>ok</span><span><i style=\"background:#d63b3b\">"
      "</i>desync</span><span><i style=\"background:#8e24aa\"></i>hang</span><span><i "
      "style=\"background:#e59a1c\"></i>straggler</span>");
  h += "<h2>Problems</h2>\n<table id=\"collective-problems\"><thead><tr><th>kind</th><th>group</th>"
       "<th class=\"num\">seq</th><th>op</th><th>ranks at fault</th><th>detail</th></tr></thead><tbody>\n";
  size_t rows = 0;
  for (const CollectiveGroup& g : set.groups) {
    if (!(g.desync || g.hang || g.straggler || !g.missing_ranks.empty())) continue;
    if (rows++ < ctx.options.rows_per_page) h += problem_row(set, g);
  }
  h += "</tbody></table>\n";
  if (rows > ctx.options.rows_per_page)
    h += "<p class=\"warn\">" + std::to_string(rows - ctx.options.rows_per_page) +
         " more problems are not listed.</p>\n";
  h += page_tail(0, {"data/collectives.js", "assets/timeline.js"});
  ctx.site.write("collectives.html", h);

  if (set.desyncs)
    ctx.findings.push_back("<span class=\"bad\"><a href=\"collectives.html\">" +
                           plural(set.desyncs, "desynchronised collective") + "</a></span>: ranks "
                           "issued different operations or shapes for the same sequence number.");
  if (set.hangs || set.missing)
    ctx.findings.push_back("<span class=\"bad\"><a href=\"collectives.html\">" +
                           plural(std::max(set.hangs, set.missing), "collective") +
                           " hung</a></span>: some ranks never issued them and their peers timed out.");
  if (set.stragglers)
    ctx.findings.push_back("<a href=\"collectives.html\">" + plural(set.stragglers, "straggler") +
                           "</a>: a rank arrived far later than its peers.");
}

}  // namespace tlscope::exporters
