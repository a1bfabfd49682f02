// ranks.html: multi-rank divergence. One column per rank; a cell that differs from the most
// common value across ranks is marked, so the rank that diverged stands out.
#include <cstdio>
#include <map>
#include <set>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

using PerRank = std::map<int64_t, std::string>;

// One table row; cells whose value differs from the majority get class "bad".
std::string divergence_row(std::string_view label, const std::vector<int64_t>& ranks,
                           const PerRank& values, int64_t& diverging_rows) {
  std::map<std::string, int> votes;
  for (int64_t r : ranks) {
    auto it = values.find(r);
    ++votes[it == values.end() ? "" : it->second];
  }
  std::string majority;
  int best = -1;
  for (auto& [v, n] : votes)
    if (n > best) best = n, majority = v;
  diverging_rows += votes.size() > 1;
  std::string h = "<tr" + std::string(votes.size() > 1 ? " class=\"diverges\"" : "") + "><th>" +
                  html_escape(label) + "</th>";
  for (int64_t r : ranks) {
    auto it = values.find(r);
    std::string v = it == values.end() ? "" : it->second;
    h += v == majority ? "<td>" : "<td class=\"bad\">";
    append_html_escaped(h, v.size() > 200 ? v.substr(0, 200) + "..." : v);
    h += "</td>";
  }
  return h + "</tr>\n";
}

PerRank per_rank(const Database& db, std::string_view sql) {
  PerRank out;
  Statement s = db.prepare(sql);
  while (s.step()) out[s.int64(0)] = s.text(1);
  return out;
}

}  // namespace

void write_ranks_page(ReportContext& ctx, const std::vector<CompileInfo>& compiles) {
  std::vector<int64_t> ranks;
  {
    Statement s = ctx.db.prepare("SELECT DISTINCT rank FROM events WHERE rank IS NOT NULL ORDER BY rank");
    while (s.step()) ranks.push_back(s.int64(0));
  }
  std::string h = page_head("Ranks", "ranks", 0);
  int64_t diverging = 0;
  if (ranks.size() < 2) {
    h += "<p id=\"rank-count\" data-count=\"" + std::to_string(ranks.size()) +
         "\">This log has " + plural(static_cast<int64_t>(ranks.size()), "rank") +
         "; there is nothing to compare across ranks.</p>\n";
  } else {
    h += "<p id=\"rank-count\" data-count=\"" + std::to_string(ranks.size()) + "\">" +
         plural(static_cast<int64_t>(ranks.size()), "rank") +
         ". Red cells differ from the value most ranks have.</p>\n";
    std::string t = "<table id=\"rank-divergence\"><thead><tr><th></th>";
    for (int64_t r : ranks) t += "<th>rank " + std::to_string(r) + "</th>";
    t += "</tr></thead><tbody>\n";
    PerRank count, failed, ids, time;
    std::map<int64_t, std::set<std::string>> id_sets;
    std::map<int64_t, double> seconds;
    std::map<int64_t, int64_t> failures;
    for (const CompileInfo& c : compiles) {
      if (!c.rank) continue;
      id_sets[*c.rank].insert(c.compile_id);
      seconds[*c.rank] += c.duration_us / 1e6;
      failures[*c.rank] += !c.fail_type.empty();
    }
    for (auto& [r, set] : id_sets) {
      count[r] = std::to_string(set.size());
      for (const std::string& id : set) ids[r] += (ids[r].empty() ? "" : " ") + id;
    }
    for (int64_t r : ranks) {
      failed[r] = std::to_string(failures[r]);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f s", seconds[r]);
      time[r] = buf;
    }
    t += divergence_row("compile ids", ranks, count, diverging);
    t += divergence_row("compile id set", ranks, ids, diverging);
    t += divergence_row("failed compiles", ranks, failed, diverging);
    // Compile time naturally varies; it is shown for reading, not counted as divergence.
    int64_t ignored = 0;
    t += divergence_row("compile time", ranks, time, ignored);
    if (ctx.db.has_table("artifacts")) {
      auto artifact_count = [&](std::string_view name) {
        PerRank p = per_rank(ctx.db, "SELECT e.rank, count(*) FROM artifacts a JOIN events e ON "
                                     "e.id = a.event_id WHERE a.name = '" + std::string(name) +
                                     "' AND e.rank IS NOT NULL GROUP BY e.rank");
        for (int64_t r : ranks) if (!p.count(r)) p[r] = "0";
        return p;
      };
      t += divergence_row("graph breaks", ranks, artifact_count("dynamo_graph_break_reason"), diverging);
      t += divergence_row("recompiles", ranks, artifact_count("recompile_reasons"), diverging);
      // Cache outcomes in log order: H hit, M miss, B bypass.
      t += divergence_row("cache sequence", ranks,
                          per_rank(ctx.db,
                                   "SELECT rank, group_concat(o, '') FROM (SELECT e.rank AS rank, "
                                   "CASE WHEN a.name LIKE '%cache_hit%' THEN 'H' WHEN a.name LIKE "
                                   "'%cache_miss%' THEN 'M' ELSE 'B' END AS o FROM artifacts a JOIN "
                                   "events e ON e.id = a.event_id WHERE e.rank IS NOT NULL AND "
                                   "(a.name LIKE '%cache_hit%' OR a.name LIKE '%cache_miss%' OR "
                                   "a.name LIKE '%cache_bypass%') ORDER BY e.id) GROUP BY rank"),
                          diverging);
      // Collective schedules per graph: the ordered kernel names Inductor scheduled.
      std::map<std::string, PerRank> schedules;
      Statement s = ctx.db.prepare(
          "SELECT e.rank, e.compile_id, p.text FROM artifacts a JOIN events e ON e.id = a.event_id "
          "JOIN payloads p ON p.id = a.payload_id WHERE a.name = 'inductor_collective_schedule' "
          "AND e.rank IS NOT NULL ORDER BY e.id");
      while (s.step()) {
        std::string text = s.text(2);
        std::string compact;
        for (char c : text)
          if (c != '\n' && c != ' ') compact += c;
        schedules[s.text(1)][s.int64(0)] = compact;
      }
      for (auto& [cid, values] : schedules)
        t += divergence_row("collective schedule [" + cid + "]", ranks, values, diverging);
    }
    t += "</tbody></table>\n";
    h += "<p id=\"divergence\" data-diverging-rows=\"" + std::to_string(diverging) + "\">" +
         plural(diverging, "row") + " differ across ranks.</p>\n" + t;
    if (diverging > 0)
      ctx.findings.push_back("<a href=\"ranks.html\">Ranks diverge</a> in " +
                             plural(diverging, "respect") + " (compile ids, graph breaks, cache "
                             "outcomes or collective schedules).");
  }
  h += page_tail(0);
  ctx.site.write("ranks.html", h);
}

}  // namespace tlscope::exporters
