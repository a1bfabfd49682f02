// Reads the graph runtime section from the graph_runtimes and graph_runtime_spread tables.
#include "tlscope/views/graph_runtimes.hpp"

#include "read_rows.hpp"
#include "tlscope/model/json_ints.hpp"

namespace tlscope::views {

Result<GraphRuntimes> load_graph_runtimes(const Database& db, Page page) {
  Result<GraphRuntimes> out;
  GraphRuntimes& v = out.value;
  if (!db.has_table("graph_runtimes") || !db.has_table("graph_runtime_spread")) return out;
  read_rows(db,
            "SELECT rank, count(*) FROM graph_runtimes WHERE rank IS NOT NULL GROUP BY rank "
            "ORDER BY rank",
            out, [&](const Statement& s) {
              v.graph_counts.push_back({s.int64(0), s.int64(1)});
              if (v.graph_counts.front().graphs != s.int64(1)) v.counts_differ = true;
            });
  read_rows(db,
            "SELECT compile_id FROM graph_runtime_spread WHERE missing_ranks <> '[]' ORDER BY id",
            out, [&](const Statement& s) { v.uneven_graphs.push_back(s.text(0)); });
  v.graphs.total = static_cast<size_t>(db.scalar("SELECT count(*) FROM graph_runtime_spread"));
  read_rows_bound(
      db,
      "SELECT compile_id, ranks, missing_ranks, fastest_rank, fastest_ns, slowest_rank, "
      "slowest_ns, difference_ns FROM graph_runtime_spread ORDER BY id LIMIT ?1 OFFSET ?2",
      out,
      [&](Statement& s) {
        s.bind(1, page.limit == Page::kAll ? int64_t{-1} : static_cast<int64_t>(page.limit))
            .bind(2, static_cast<int64_t>(page.offset));
      },
      [&](const Statement& s) {
        GraphRuntimeRow& r = v.graphs.rows.emplace_back();
        r.compile_id = s.text(0);
        r.ranks = model::json_int_list(s.text_view(1));
        r.missing_ranks = model::json_int_list(s.text_view(2));
        r.fastest_rank = s.int64(3);
        r.fastest_ns = s.real(4);
        r.slowest_rank = s.int64(5);
        r.slowest_ns = s.real(6);
        r.difference_ns = s.real(7);
      });
  return out;
}

}  // namespace tlscope::views
