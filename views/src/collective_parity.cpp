// Reads the collectives parity section from the collective_parity analysis table.
#include "tlscope/views/collective_parity.hpp"

#include "read_rows.hpp"

namespace tlscope::views {

Result<CollectiveParity> load_collective_parity(const Database& db, Page page) {
  Result<CollectiveParity> out;
  if (!db.has_table("collective_parity")) return out;
  CollectiveParity& v = out.value;
  v.graphs.total = static_cast<size_t>(
      db.scalar("SELECT count(*) FROM (SELECT DISTINCT file_id, schedule_event_id FROM "
                "collective_parity)"));
  if (db.has_table("findings"))
    v.mismatched = db.scalar("SELECT count(*) FROM findings WHERE kind = 'collective_parity'");
  const int64_t limit = page.limit == Page::kAll ? -1 : static_cast<int64_t>(page.limit);
  read_rows_bound(
      db,
      // The page's graphs (g), then their rows, each carrying its graph's sort key (w: the
      // graph's first row, as min(id) picks it in g). Not a join of g with the table: the table
      // has no index on (file_id, schedule_event_id), so SQLite scanned it once per graph
      // (0.3 s for 3,222 rows on the 1 GB benchmark log); IN builds a transient index.
      "WITH g AS (SELECT file_id, schedule_event_id, min(id) AS first, rank AS r, compile_id AS "
      "cid, graph AS gi FROM collective_parity GROUP BY file_id, schedule_event_id ORDER BY r, "
      "cid, gi, file_id LIMIT ?1 OFFSET ?2), "
      "w AS (SELECT *, first_value(rank) OVER p AS r, first_value(compile_id) OVER p AS cid, "
      "first_value(graph) OVER p AS gi FROM collective_parity "
      "WINDOW p AS (PARTITION BY file_id, schedule_event_id ORDER BY id)) "
      "SELECT file_id, rank, compile_id, graph, op, scheduled, generated, unwaited, "
      "schedule_event_id FROM w WHERE (file_id, schedule_event_id) IN "
      "(SELECT file_id, schedule_event_id FROM g) ORDER BY r, cid, gi, file_id, id",
      out, [&](Statement& s) { s.bind(1, limit).bind(2, static_cast<int64_t>(page.offset)); },
      [&, last = std::pair<int64_t, int64_t>{-1, -1}](const Statement& s) mutable {
        std::pair<int64_t, int64_t> key{s.int64(0), s.int64(8)};
        if (key != last || v.graphs.rows.empty()) {
          last = key;
          ParityGraph& g = v.graphs.rows.emplace_back();
          g.file_id = s.int64(0);
          g.rank = s.opt_int64(1);
          g.compile_id = s.text(2);
          g.graph = s.int64(3);
          g.has_code = !s.is_null(6);
        }
        ParityGraph& g = v.graphs.rows.back();
        ParityOp& op = g.ops.emplace_back();
        op.op = s.text(4);
        op.scheduled = s.int64(5);
        op.generated = s.opt_int64(6);
        op.unwaited = s.opt_int64(7);
        op.agrees =
            (!op.generated || *op.generated == op.scheduled) && (!op.unwaited || *op.unwaited == 0);
        (op.op == "wait_tensor" ? g.waits : g.issued) += op.scheduled;
        g.agrees = g.agrees && op.agrees;
      });
  for (ParityGraph& g : v.graphs.rows) g.agrees = g.agrees && g.waits >= g.issued;
  return out;
}

}  // namespace tlscope::views
