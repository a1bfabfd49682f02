// Reads the analysis `compiles` table (docs/schema.md) in log order.
#include "compile_index.hpp"

namespace tlscope::exporters {

std::vector<CompileInfo> load_compiles(const Database& db) {
  std::vector<CompileInfo> out;
  Statement s = db.prepare(
      "SELECT id, file_id, rank, compile_id, compiled_autograd_id, frame_id, frame_compile_id, "
      "coalesce(attempts, 1), coalesce(status, ''), coalesce(co_name, ''), "
      "coalesce(co_filename, ''), coalesce(co_firstlineno, 0), coalesce(fail_type, ''), "
      "coalesce(fail_reason, ''), coalesce(recompile_reason, ''), coalesce(restart_count, 0), "
      "graph_op_count, coalesce(duration_us, 0), tree_node_id FROM compiles "
      "ORDER BY first_event_id, id");
  while (s.step()) {
    CompileInfo c;
    c.row = s.int64(0);
    c.file_id = s.int64(1);
    c.rank = s.opt_int64(2);
    c.compile_id = s.text(3);
    c.compiled_autograd_id = s.opt_int64(4);
    c.frame_id = s.opt_int64(5);
    c.frame_compile_id = s.opt_int64(6);
    c.attempts = s.int64(7);
    c.status = s.text(8);
    c.co_name = s.text(9);
    c.co_filename = s.text(10);
    c.co_firstlineno = s.int64(11);
    c.fail_type = s.text(12);
    c.fail_reason = s.text(13);
    c.recompile_reason = s.text(14);
    c.restart_count = s.int64(15);
    c.graph_op_count = s.opt_int64(16);
    c.duration_us = s.real(17);
    c.tree_node_id = s.opt_int64(18);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace tlscope::exporters
