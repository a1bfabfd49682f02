// Graph runtime across ranks: Inductor's per-kernel estimates (`inductor_runtime_and_tensor_meta`,
// `estimated_runtime_ns` of each op) summed per rank and graph, and per graph the fastest and
// slowest rank and the ranks that have no estimate for it (their graph count differs).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

void build_graph_runtimes(sqlite3* db) {
  // Both tables come from these records only.
  if (!has_rows(db,
                "artifacts WHERE name IN ('inductor_runtime_and_tensor_meta', "
                "'inductor_tlparse_runtime')"))
    return;
  const std::string key = compile_key_sql("a.compile_id");
  // Several files of one rank (two runs) add up under that rank; ops that are not objects (a
  // hostile payload) are skipped so json_extract never sees non-JSON text.
  exec(db,
       "INSERT INTO graph_runtimes(file_id, rank, compile_id, estimated_ns, collective_ns, ops, "
       "artifacts) SELECT min(a.file_id), COALESCE(f.rank, a.rank), " +
           key +
           ", total(json_extract(o.value, '$.estimated_runtime_ns')), "
           "total(CASE WHEN json_extract(o.value, '$.type') = 'collective' THEN "
           "json_extract(o.value, '$.estimated_runtime_ns') END), count(*), "
           "count(DISTINCT a.event_id) "
           "FROM artifacts a JOIN files f ON f.id = a.file_id JOIN payloads p ON p.id = "
           "a.payload_id, json_each(p.text, '$.ops') o "
           "WHERE a.name IN ('inductor_runtime_and_tensor_meta', 'inductor_tlparse_runtime') "
           "AND json_valid(p.text) AND json_type(p.text, '$.ops') = 'array' AND o.type = "
           "'object' AND " +
           key +
           " IS NOT NULL "
           "GROUP BY COALESCE(f.rank, a.rank), " +
           key + " ORDER BY min(a.event_id)");

  std::vector<int64_t> all_ranks;
  {
    Statement r(db, "SELECT DISTINCT rank FROM graph_runtimes WHERE rank IS NOT NULL ORDER BY 1");
    while (r.step()) all_ranks.push_back(r.int64(0));
  }
  struct PerGraph {
    int64_t first_row = 0;
    std::vector<std::pair<int64_t, double>> by_rank;  // ascending rank
  };
  std::map<std::string, PerGraph> graphs;
  {
    Statement r(db,
                "SELECT compile_id, rank, estimated_ns, id FROM graph_runtimes WHERE rank IS NOT "
                "NULL ORDER BY compile_id, rank");
    while (r.step()) {
      PerGraph& g = graphs[r.text(0)];
      if (g.by_rank.empty() || r.int64(3) < g.first_row) g.first_row = r.int64(3);
      g.by_rank.emplace_back(r.int64(1), r.real(2));
    }
  }
  std::vector<std::pair<int64_t, std::string>> order;  // graphs in log order
  for (const auto& [cid, g] : graphs) order.emplace_back(g.first_row, cid);
  std::sort(order.begin(), order.end());
  Statement insert(db,
                   "INSERT INTO graph_runtime_spread(compile_id, ranks, missing_ranks, "
                   "fastest_rank, fastest_ns, slowest_rank, slowest_ns, difference_ns) VALUES "
                   "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  for (const auto& [first, cid] : order) {
    const PerGraph& g = graphs.at(cid);
    std::vector<int64_t> ranks, missing;
    auto fastest = g.by_rank.front(), slowest = g.by_rank.front();
    for (const auto& [rank, ns] : g.by_rank) {
      ranks.push_back(rank);
      if (ns < fastest.second) fastest = {rank, ns};  // ties keep the lowest rank
      if (ns > slowest.second) slowest = {rank, ns};
    }
    for (int64_t r : all_ranks)
      if (!std::binary_search(ranks.begin(), ranks.end(), r)) missing.push_back(r);
    insert.bind(1, std::string_view(cid)).bind(2, ranks_json(ranks)).bind(3, ranks_json(missing));
    insert.bind(4, fastest.first).bind(5, fastest.second).bind(6, slowest.first);
    insert.bind(7, slowest.second).bind(8, slowest.second - fastest.second).run();
  }
}

}  // namespace tlscope::model::analysis
