// SPMD graph checks (torch/_inductor/fx_passes/spmd_check.py, before the overlap scheduler
// reorders collectives): when the ranks' FX graphs hash differently, every rank logs
// `inductor_spmd_graph_mismatch`, a text report:
//   SPMD GRAPH MISMATCH — rank 1, world_size=4
//   MISMATCH IN top-level graph:            (or: MISMATCH IN subgraph 'subgraph_0':)
//     NODE COUNTS PER RANK:
//       rank 0: 12 call_function nodes
//       rank 1: 11 call_function nodes <--
//     DIFFS rank 0 vs rank 1:
//       node 5:
//         rank 0: aten.mm.default meta=...
//         rank 1: aten.add.Tensor meta=...
// (the first release had no MISMATCH IN sections: one graph). Ranks that compiled different
// graphs issue different collectives in different orders, which hangs NCCL; one row per report
// and graph, and one finding per compile and graph however many ranks logged it.
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "artifact_records.hpp"
#include "passes.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

namespace {

std::optional<int64_t> number_after(std::string_view line, std::string_view prefix) {
  size_t at = line.find(prefix);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(at + prefix.size());
  size_t digits = rest.find_first_not_of("0123456789");
  rest = rest.substr(0, digits);
  if (rest.empty() || rest.size() > 9) return std::nullopt;
  return std::strtoll(std::string(rest).c_str(), nullptr, 10);
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

struct Mismatch {
  std::optional<std::string> graph;  // "" the top-level graph, NULL when the report has no section
  std::set<int64_t> ranks;           // rank 0 and every rank whose graph differs from it
  std::vector<std::pair<int64_t, int64_t>> node_counts;  // rank, call_function nodes
  std::optional<int64_t> node_index, other_rank;
  std::string reference_node, other_node;
};

// The report's graphs, in its order.
std::vector<Mismatch> read_report(std::string_view text, std::optional<int64_t>& reporting_rank,
                                  std::optional<int64_t>& world_size) {
  std::vector<Mismatch> out;
  std::optional<int64_t> diff_rank;  // the rank of the open "DIFFS rank 0 vs rank r"
  bool in_counts = false, in_node = false;
  auto current = [&]() -> Mismatch& {
    if (out.empty()) out.emplace_back();
    return out.back();
  };
  for_each_line(text, [&](std::string_view line) {
    std::string_view t = trimmed(line);
    if (t.starts_with("SPMD GRAPH MISMATCH")) {
      reporting_rank = number_after(t, "rank ");
      world_size = number_after(t, "world_size=");
    } else if (t.starts_with("MISMATCH IN ")) {
      Mismatch m;
      size_t q = t.find('\'');
      size_t q2 = q == std::string_view::npos ? q : t.rfind('\'');
      m.graph = (q != std::string_view::npos && q2 > q) ? std::string(t.substr(q + 1, q2 - q - 1))
                                                        : std::string();
      out.push_back(std::move(m));
      in_counts = in_node = false;
      diff_rank.reset();
    } else if (t.starts_with("NODE COUNTS PER RANK")) {
      in_counts = true;
    } else if (t.starts_with("DIFFS rank 0 vs rank ")) {
      in_counts = in_node = false;
      diff_rank = number_after(t, "vs rank ");
      Mismatch& m = current();
      m.ranks.insert(0);
      if (diff_rank) m.ranks.insert(*diff_rank);
    } else if (in_counts && t.starts_with("rank ")) {
      auto r = number_after(t, "rank ");
      auto n = number_after(t, ": ");
      if (r && n) current().node_counts.emplace_back(*r, *n);
      if (r && t.ends_with("<--")) current().ranks.insert({0, *r});
    } else if (diff_rank && t.starts_with("node ") && t.ends_with(":")) {
      in_node = !current().node_index.has_value();
      if (in_node) {
        current().node_index = number_after(t, "node ");
        current().other_rank = diff_rank;
      }
    } else if (in_node && t.starts_with("rank ")) {
      size_t colon = t.find(": ");
      if (colon == std::string_view::npos) return;
      std::string node(t.substr(colon + 2));
      if (number_after(t, "rank ") == 0)
        current().reference_node = node;
      else {
        current().other_node = node;
        in_node = false;
      }
    } else if (!t.empty()) {
      in_counts = false;
    }
  });
  return out;
}

std::string set_json(const std::set<int64_t>& ranks) {
  return ranks_json(std::vector<int64_t>(ranks.begin(), ranks.end()));
}

}  // namespace

void build_spmd_mismatch(sqlite3* db) {
  Statement add(db,
                "INSERT INTO spmd_graph_mismatches(file_id, rank, compile_id, event_id, "
                "reporting_rank, world_size, graph, ranks, node_counts, node_index, "
                "reference_node, other_rank, other_node) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
                "?8, ?9, ?10, ?11, ?12, ?13)");
  for_each_artifact(db, "a.name = 'inductor_spmd_graph_mismatch'", [&](const ArtifactRecord& r) {
    std::optional<int64_t> reporting_rank, world_size;
    std::vector<Mismatch> graphs = read_report(r.payload, reporting_rank, world_size);
    if (graphs.empty()) graphs.emplace_back();  // a report we cannot read is still a mismatch
    for (const Mismatch& m : graphs) {
      // Appended piece by piece: a chained `+` trips GCC 12's -Wrestrict false positive.
      std::string counts = "[";
      for (const auto& [rank, n] : m.node_counts) {
        if (counts.size() > 1) counts += ',';
        counts += "{\"rank\":";
        counts += std::to_string(rank);
        counts += ",\"nodes\":";
        counts += std::to_string(n);
        counts += '}';
      }
      counts += ']';
      add.bind(1, r.file_id).bind(2, r.rank).bind(3, r.compile_id).bind(4, r.event_id);
      add.bind(5, reporting_rank).bind(6, world_size).bind_clipped(7, m.graph);
      add.bind(8, set_json(m.ranks)).bind(9, counts).bind(10, m.node_index);
      add.bind_clipped(11, m.reference_node).bind(12, m.other_rank);
      add.bind_clipped(13, m.other_node).run();
    }
  });
}

// One finding per compile and graph: each rank logs the same report, told once with the ranks
// that differ (or, when the report names none, the ranks that logged it).
void spmd_findings(sqlite3* db) {
  if (!has_rows(db, "spmd_graph_mismatches")) return;
  insert_findings(
      db, FindingKind::spmd_graph_mismatch,
      "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, detail) SELECT ?1, ?2"
      ", CASE WHEN max(ranks) <> '[]' THEN max(ranks) ELSE (SELECT json_group_array(r) "
      "FROM (SELECT DISTINCT s.rank AS r FROM spmd_graph_mismatches s WHERE s.rank IS NOT "
      "NULL AND s.compile_id IS m.compile_id AND s.graph IS m.graph ORDER BY 1)) END, "
      "'[]', " +
          compile_key_sql("compile_id") +
          ", json_object('graph', graph, 'world_size', max(world_size), 'node_index', "
          "min(node_index), 'reference_node', max(reference_node), 'other_rank', "
          "min(other_rank), 'other_node', max(other_node), 'node_counts', json(max(node_counts)), "
          "'reports', count(*)) FROM spmd_graph_mismatches m GROUP BY " +
          compile_key_sql("compile_id") + ", graph ORDER BY min(id)")
      .run();
}

}  // namespace tlscope::model::analysis
