// Collectives parity and graph runtime across ranks, as report sections. Each graph is one table
// row; a cell that disagrees is marked "bad". Lists longer than a page go to their own pages.
#include "parity_html.hpp"

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/time_format.hpp"

namespace tlscope::exporters {

namespace {

std::string ranks_text(const std::vector<int64_t>& ranks) {
  std::string s;
  for (int64_t r : ranks) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

std::string parity_row(const views::ParityGraph& g) {
  std::string r = std::string("<tr class=\"parity-graph") + (g.agrees ? "" : " bad") +
                  "\" data-rank=\"" + (g.rank ? std::to_string(*g.rank) : "") +
                  "\" data-compile=\"" + html_escape(g.compile_id) + "\" data-agrees=\"" +
                  (g.agrees ? "1" : "0") + "\"><td>" + rank_label(g.rank) + "</td><td>" +
                  compile_link(g.file_id, std::nullopt, g.compile_id, 0) +
                  (g.graph ? " graph " + std::to_string(g.graph + 1) : "") + "</td><td>";
  for (const views::ParityOp& op : g.ops) {
    r += std::string("<span class=\"parity-op") + (op.agrees ? "" : " bad") + "\" data-op=\"" +
         html_escape(op.op) + "\" data-scheduled=\"" + std::to_string(op.scheduled) +
         "\" data-generated=\"" + (op.generated ? std::to_string(*op.generated) : "") + "\">";
    append_html_escaped(r, op.op);
    r += " " + std::to_string(op.scheduled) + " / " +
         (op.generated ? std::to_string(*op.generated) : std::string("?"));
    if (op.unwaited && *op.unwaited > 0) r += " (" + std::to_string(*op.unwaited) + " unwaited)";
    r += "</span><br>";
  }
  r += "</td><td>";
  if (!g.has_code)
    r += "<span class=\"muted\">no output code logged</span>";
  else if (g.waits < g.issued)
    r += "the schedule waits " + std::to_string(g.waits) + " times for " +
         std::to_string(g.issued) + " collectives";
  else
    r += g.agrees ? "agrees" : "differs";
  return r + "</td></tr>\n";
}

std::string runtime_row(const views::GraphRuntimeRow& g) {
  std::string r = "<tr class=\"graph-runtime\" data-compile=\"" + html_escape(g.compile_id) +
                  "\" data-difference-ns=\"" + std::to_string(g.difference_ns) + "\"><td>";
  append_html_escaped(r, g.compile_id);
  r += "</td><td>rank " + std::to_string(g.fastest_rank) + " (" +
       views::format_duration_us(g.fastest_ns / 1e3) + ")</td><td>rank " +
       std::to_string(g.slowest_rank) + " (" + views::format_duration_us(g.slowest_ns / 1e3) +
       ")</td><td class=\"num\">" + views::format_duration_us(g.difference_ns / 1e3) + "</td><td>" +
       ranks_text(g.ranks) + "</td>";
  r += g.missing_ranks.empty() ? "<td></td>"
                               : "<td class=\"bad\">" + ranks_text(g.missing_ranks) + "</td>";
  return r + "</tr>\n";
}

}  // namespace

std::string collective_parity_html(ReportContext& ctx) {
  auto loaded = views::load_collective_parity(ctx.db);
  const views::CollectiveParity& v = noted(ctx, "collectives parity", loaded);
  std::string h = "<h2 id=\"collective-parity\">Collectives parity</h2>\n";
  if (v.graphs.total == 0)
    return h +
           "<p>No graph logged an inductor_collective_schedule to compare with its "
           "generated code.</p>\n";
  h += "<p id=\"collective-parity-summary\" data-graphs=\"" + std::to_string(v.graphs.total) +
       "\" data-mismatched=\"" + std::to_string(v.mismatched) + "\">Per rank and graph, each " +
       "collective's count in Inductor's schedule against its calls in the generated code " +
       "(scheduled / called): " + plural(static_cast<int64_t>(v.graphs.total), "graph") + ", " +
       std::to_string(v.mismatched) + " that disagree.</p>\n";
  std::string table_open =
      "<table id=\"collective-parity-table\"><thead><tr><th>rank</th><th>compile</th>"
      "<th>op: scheduled / called</th><th></th></tr></thead><tbody>\n";
  std::vector<std::string> rows;
  for (const views::ParityGraph& g : v.graphs.rows) rows.push_back(parity_row(g));
  h += table_open;
  for (size_t i = 0; i < rows.size() && i < ctx.options.rows_per_page; ++i) h += rows[i];
  h += "</tbody></table>\n";
  h += write_row_pages(ctx, "collective_parity", "Collectives parity", "collectives",
                       "<p>Every graph's collectives, scheduled against generated (<a "
                       "href=\"collectives.html\">Collectives</a>).</p>\n",
                       table_open, rows);
  return h;
}

std::string graph_runtimes_html(ReportContext& ctx) {
  auto loaded = views::load_graph_runtimes(ctx.db);
  const views::GraphRuntimes& v = noted(ctx, "graph runtimes", loaded);
  std::string h = "<h2 id=\"graph-runtimes\">Graph runtime across ranks</h2>\n";
  if (v.graphs.total == 0)
    return h + "<p>No graph logged inductor_runtime_and_tensor_meta estimates.</p>\n";
  h += "<p id=\"graph-counts\" data-differ=\"" + std::string(v.counts_differ ? "1" : "0") +
       "\">Graphs with runtime estimates per rank: ";
  for (size_t i = 0; i < v.graph_counts.size(); ++i)
    h += (i ? ", " : "") + std::string("rank ") + std::to_string(v.graph_counts[i].rank) + ": " +
         std::to_string(v.graph_counts[i].graphs);
  h += ".";
  if (!v.uneven_graphs.empty()) {
    h += " <span class=\"bad\">Not on every rank: ";
    for (size_t i = 0; i < v.uneven_graphs.size(); ++i) {
      if (i) h += ", ";
      append_html_escaped(h, v.uneven_graphs[i]);
    }
    h += ".</span>";
  }
  h += "</p>\n";
  std::string table_open =
      "<table id=\"graph-runtimes-table\"><thead><tr><th>graph</th><th>fastest</th><th>slowest</th>"
      "<th class=\"num\">difference</th><th>ranks</th><th>missing on</th></tr></thead><tbody>\n";
  std::vector<std::string> rows;
  for (const views::GraphRuntimeRow& g : v.graphs.rows) rows.push_back(runtime_row(g));
  h += table_open;
  for (size_t i = 0; i < rows.size() && i < ctx.options.rows_per_page; ++i) h += rows[i];
  h += "</tbody></table>\n";
  h += write_row_pages(ctx, "graph_runtimes", "Graph runtime across ranks", "ranks",
                       "<p>Every graph's estimated runtime across ranks (<a "
                       "href=\"ranks.html\">Ranks</a>).</p>\n",
                       table_open, rows);
  return h;
}

}  // namespace tlscope::exporters
