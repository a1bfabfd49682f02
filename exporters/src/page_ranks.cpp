// ranks.html: multi-rank divergence. A per-rank table of counts (a cell that differs from the
// value most ranks have is marked) and every divergence the analysis found (rank_divergence).
#include <cstdio>
#include <map>

#include "pages.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

using PerRank = std::map<int64_t, std::string>;

// One table row; cells whose value differs from the majority get class "bad".
std::string count_row(std::string_view label, const std::vector<int64_t>& ranks,
                      const PerRank& values, bool mark) {
  std::map<std::string, int> votes;
  for (int64_t r : ranks) {
    auto it = values.find(r);
    ++votes[it == values.end() ? "0" : it->second];
  }
  std::string majority;
  int best = -1;
  for (auto& [v, n] : votes)
    if (n > best) best = n, majority = v;
  std::string h = "<tr><th>" + html_escape(label) + "</th>";
  for (int64_t r : ranks) {
    auto it = values.find(r);
    std::string v = it == values.end() ? "0" : it->second;
    h += mark && v != majority ? "<td class=\"num bad\">" : "<td class=\"num\">";
    append_html_escaped(h, v);
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

void write_ranks_page(ReportContext& ctx, const std::vector<CompileRow>& compiles) {
  std::vector<int64_t> ranks;
  {
    Statement s =
        ctx.db.prepare("SELECT DISTINCT rank FROM files WHERE rank IS NOT NULL ORDER BY rank");
    while (s.step()) ranks.push_back(s.int64(0));
  }
  std::string h = page_head("Ranks", "ranks", 0);
  h += "<p id=\"rank-count\" data-count=\"" + std::to_string(ranks.size()) + "\">" +
       plural(static_cast<int64_t>(ranks.size()), "rank") + ".";
  if (ranks.size() < 2) h += " There is nothing to compare across ranks.";
  h += "</p>\n";
  if (ranks.size() >= 2) {
    h += "<h2>Per rank</h2>\n<table id=\"rank-counts\"><thead><tr><th></th>";
    for (int64_t r : ranks) h += "<th>rank " + std::to_string(r) + "</th>";
    h += "</tr></thead><tbody>\n";
    PerRank time;
    std::map<int64_t, double> seconds;
    for (const CompileRow& c : compiles)
      if (c.rank >= 0) seconds[c.rank] += std::max(c.duration_us, 0.0) / 1e6;
    for (auto& [r, sec] : seconds) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f s", sec);
      time[r] = buf;
    }
    auto count = [&](std::string_view table, std::string_view where = "") {
      return per_rank(ctx.db, "SELECT rank, count(*) FROM " + std::string(table) +
                                  " WHERE rank IS NOT NULL " + std::string(where) +
                                  " GROUP BY rank");
    };
    h += count_row("compiles", ranks, count("compiles"), true);
    h += count_row("failed compiles", ranks, count("failures"), true);
    h += count_row("graph breaks", ranks, count("graph_breaks"), true);
    h += count_row("recompiles", ranks, count("recompiles"), true);
    h += count_row("cache hits", ranks, count("cache_events", "AND result = 'hit'"), true);
    h += count_row("cache misses", ranks, count("cache_events", "AND result = 'miss'"), true);
    h += count_row("collectives", ranks, count("collectives"), true);
    // Compile time naturally varies between ranks; shown for reading, never marked.
    h += count_row("compile time", ranks, time, false);
    h += "</tbody></table>\n";
  }
  int64_t n = ctx.db.scalar("SELECT count(*) FROM rank_divergence");
  std::string table_open =
      "<table id=\"rank-divergence\" data-count=\"" + std::to_string(n) +
      "\"><thead><tr><th>aspect</th><th>compile</th><th>ranks</th><th>value</th>"
      "<th>other ranks</th><th>their value</th></tr></thead><tbody>\n";
  Statement d = ctx.db.prepare(
      "SELECT coalesce(aspect, ''), coalesce(compile_id, ''), coalesce(ranks, ''), "
      "coalesce(value, ''), coalesce(other_ranks, ''), coalesce(other_value, '') "
      "FROM rank_divergence ORDER BY id");
  std::vector<std::string> rows;
  while (d.step()) {
    std::string r = "<tr>";
    for (int col = 0; col < 6; ++col) {
      std::string_view v = d.text_view(col);
      r += col == 3 ? "<td class=\"bad\">" : "<td>";
      append_html_escaped(r, v.size() > 400 ? v.substr(0, 400) : v);
      if (v.size() > 400) r += "&hellip;";
      r += "</td>";
    }
    rows.push_back(r + "</tr>\n");
  }
  h += "<h2>Divergences (" + std::to_string(n) + ")</h2>\n" + table_open;
  for (size_t i = 0; i < rows.size() && i < ctx.options.rows_per_page; ++i) h += rows[i];
  h += "</tbody></table>\n";
  h +=
      write_row_pages(ctx, "rank_divergence", "Rank divergences", "ranks",
                      "<p>Every divergence between ranks (<a href=\"ranks.html\">Ranks</a>).</p>\n",
                      table_open, rows);
  h += page_tail(0);
  ctx.site.write("ranks.html", h);
}

}  // namespace tlscope::exporters
