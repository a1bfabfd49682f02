// ranks.html: multi-rank divergence, drawn from views::RankDivergence: the per-rank table of
// counts (a cell that differs from the majority is marked) and every divergence row.
#include "pages.hpp"
#include "parity_html.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/views/rank_divergence.hpp"

namespace tlscope::exporters {

namespace {

constexpr size_t kMaxCellChars = 400;

std::string count_row(const views::RankCountRow& row) {
  std::string h = "<tr><th>" + html_escape(row.label) + "</th>";
  for (size_t i = 0; i < row.values.size(); ++i) {
    h += row.differs[i] ? "<td class=\"num bad\">" : "<td class=\"num\">";
    append_html_escaped(h, row.values[i]);
    h += "</td>";
  }
  return h + "</tr>\n";
}

std::string divergence_row(const views::RankDivergenceRow& d) {
  std::string r = "<tr>";
  int col = 0;
  for (const std::string* v :
       {&d.aspect, &d.compile_id, &d.ranks, &d.value, &d.other_ranks, &d.other_value}) {
    r += col++ == 3 ? "<td class=\"bad\">" : "<td>";
    std::string_view text = *v;
    append_html_escaped(r, text.substr(0, kMaxCellChars));
    if (text.size() > kMaxCellChars) r += "&hellip;";
    r += "</td>";
  }
  return r + "</tr>\n";
}

}  // namespace

void write_ranks_page(ReportContext& ctx) {
  views::Result<views::RankDivergence> view = views::load_rank_divergence(ctx.db);
  if (!view.ok()) ctx.warnings.push_back(view.error);
  const views::RankDivergence& v = *view;
  std::string h = page_head("Ranks", "ranks", 0);
  h += "<p id=\"rank-count\" data-count=\"" + std::to_string(v.ranks.size()) + "\">" +
       plural(static_cast<int64_t>(v.ranks.size()), "rank") + ".";
  if (v.ranks.size() < 2) h += " There is nothing to compare across ranks.";
  h += "</p>\n";
  if (!v.counts.empty()) {
    h += "<h2>Per rank</h2>\n<table id=\"rank-counts\"><thead><tr><th></th>";
    for (int64_t r : v.ranks) h += "<th>rank " + std::to_string(r) + "</th>";
    h += "</tr></thead><tbody>\n";
    for (const views::RankCountRow& row : v.counts) h += count_row(row);
    h += "</tbody></table>\n";
  }
  size_t n = v.divergences.total;
  std::string table_open =
      "<table id=\"rank-divergence\" data-count=\"" + std::to_string(n) +
      "\"><thead><tr><th>aspect</th><th>compile</th><th>ranks</th><th>value</th>"
      "<th>other ranks</th><th>their value</th></tr></thead><tbody>\n";
  std::vector<std::string> rows;
  for (const views::RankDivergenceRow& d : v.divergences.rows) rows.push_back(divergence_row(d));
  h += "<h2>Divergences (" + std::to_string(n) + ")</h2>\n" + table_open;
  for (size_t i = 0; i < rows.size() && i < ctx.options.rows_per_page; ++i) h += rows[i];
  h += "</tbody></table>\n";
  h +=
      write_row_pages(ctx, "rank_divergence", "Rank divergences", "ranks",
                      "<p>Every divergence between ranks (<a href=\"ranks.html\">Ranks</a>).</p>\n",
                      table_open, rows);
  h += graph_runtimes_html(ctx);
  h += page_tail(0);
  ctx.site.write("ranks.html", h);
}

}  // namespace tlscope::exporters
