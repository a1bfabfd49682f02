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
      "WITH g AS (SELECT file_id, schedule_event_id, min(id) AS first, rank AS r, compile_id AS "
      "cid, graph AS gi FROM collective_parity GROUP BY file_id, schedule_event_id ORDER BY r, "
      "cid, gi, file_id LIMIT ?1 OFFSET ?2) "
      "SELECT c.file_id, c.rank, c.compile_id, c.graph, c.op, c.scheduled, c.generated, "
      "c.unwaited, c.schedule_event_id FROM g JOIN collective_parity c ON c.file_id = g.file_id "
      "AND c.schedule_event_id = g.schedule_event_id ORDER BY g.r, g.cid, g.gi, g.file_id, c.id",
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
