// Collectives parity and graph runtime across ranks in the viewer: a line per disagreeing graph
// (so the disagreement reads without scrolling a table, and --dump-ui records it), then the
// tables.
#include "parity_sections.hpp"

#include <imgui.h>

#include <algorithm>

#include "status_colours.hpp"
#include "tlscope/views/time_format.hpp"
#include "ui_dump.hpp"

namespace tlscope::gui {

namespace {

constexpr size_t kMaxLines = 50;

std::string rank_text(const std::optional<int64_t>& rank) {
  return rank ? "rank " + std::to_string(*rank) : std::string("no rank");
}

std::string ops_text(const views::ParityGraph& g) {
  std::string s;
  for (const views::ParityOp& op : g.ops) {
    s += (s.empty() ? "" : ", ") + op.op + " " + std::to_string(op.scheduled) + "/" +
         (op.generated ? std::to_string(*op.generated) : std::string("?"));
    if (op.unwaited && *op.unwaited > 0) s += " (" + std::to_string(*op.unwaited) + " unwaited)";
  }
  return s;
}

std::string ranks_text(const std::vector<int64_t>& ranks) {
  std::string s;
  for (int64_t r : ranks) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

}  // namespace

void ParitySections::build(const views::CollectiveParity& p, const views::GraphRuntimes& rt) {
  built_ = true;
  parity_.columns = {"rank", "compile", "graph", "scheduled/called", "agrees"};
  for (const views::ParityGraph& g : p.graphs.rows) {
    std::vector<TableCell>& row = parity_.rows.emplace_back();
    row.push_back(g.rank ? number_cell(*g.rank) : TableCell("-"));
    row.push_back(TableCell(g.compile_id));
    row.push_back(number_cell(g.graph + 1));
    row.push_back(TableCell(ops_text(g)));
    TableCell agrees(g.agrees ? "yes" : "no");
    if (!g.agrees) agrees.colour = kColourWarning;
    row.push_back(std::move(agrees));
  }
  runtimes_.columns = {"graph",   "fastest rank", "fastest",   "slowest rank",
                       "slowest", "difference",   "missing on"};
  for (const views::GraphRuntimeRow& g : rt.graphs.rows) {
    std::vector<TableCell>& row = runtimes_.rows.emplace_back();
    row.push_back(TableCell(g.compile_id));
    row.push_back(number_cell(g.fastest_rank));
    row.push_back(TableCell(views::format_duration_us(g.fastest_ns / 1e3), g.fastest_ns));
    row.push_back(number_cell(g.slowest_rank));
    row.push_back(TableCell(views::format_duration_us(g.slowest_ns / 1e3), g.slowest_ns));
    row.push_back(TableCell(views::format_duration_us(g.difference_ns / 1e3), g.difference_ns));
    TableCell missing(ranks_text(g.missing_ranks));
    if (!g.missing_ranks.empty()) missing.colour = kColourWarning;
    row.push_back(std::move(missing));
  }
}

void ParitySections::draw(const views::CollectiveParity& p, const views::GraphRuntimes& rt) {
  if (!built_) build(p, rt);
  ImGui::Separator();
  ui::text("heading", "Collectives parity");
  if (p.graphs.total == 0) {
    ui::text_disabled("label", "No graph logged an inductor_collective_schedule.");
  } else {
    ui::text("label", std::to_string(p.graphs.total) + " graphs, " + std::to_string(p.mismatched) +
                          " whose schedule and generated code disagree");
    size_t shown = 0;
    for (const views::ParityGraph& g : p.graphs.rows) {
      if (g.agrees || shown++ >= kMaxLines) continue;
      ui::text_colored_wrapped(
          "parity", kColourWarning,
          rank_text(g.rank) + ", compile " + g.compile_id + ": " + ops_text(g));
    }
    parity_view_.draw("##parity", parity_,
                      std::max(100.0f, ImGui::GetContentRegionAvail().y * 0.3f));
  }
  ImGui::Separator();
  ui::text("heading", "Graph runtime across ranks");
  if (rt.graphs.total == 0) {
    ui::text_disabled("label", "No graph logged inductor_runtime_and_tensor_meta estimates.");
    return;
  }
  std::string counts = "Graphs per rank:";
  for (const views::RankGraphCount& c : rt.graph_counts)
    counts += " rank " + std::to_string(c.rank) + ": " + std::to_string(c.graphs) + ";";
  counts.pop_back();
  ui::text("label", counts);
  if (!rt.uneven_graphs.empty()) {
    std::string uneven = "Not on every rank:";
    for (size_t i = 0; i < rt.uneven_graphs.size() && i < kMaxLines; ++i)
      uneven += (i ? ", " : " ") + rt.uneven_graphs[i];
    ui::text_colored("uneven", kColourWarning, uneven);
  }
  runtimes_view_.draw("##graph_runtimes", runtimes_);
}

}  // namespace tlscope::gui
