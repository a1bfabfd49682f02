// Builds the compile id list from events, compilation_metrics and dynamo_start stacks.
#include "compile_index.hpp"

#include <map>

namespace tlscope::exporters {

namespace {

using Key = std::pair<int64_t, std::string>;  // rank (INT64_MIN for none), compile id

Key key_of(std::optional<int64_t> rank, std::string cid) {
  return {rank.value_or(INT64_MIN), std::move(cid)};
}

// dynamo_start stacks end in torch internals; the user's frame is the deepest one outside torch.
bool is_torch_internal(std::string_view file) {
  return file.find("torch/_dynamo") != std::string_view::npos ||
         file.find("torch/nn/modules") != std::string_view::npos ||
         file.find("torch/_inductor") != std::string_view::npos;
}

}  // namespace

std::string CompileInfo::status() const {
  if (!has_metrics) return "no metrics";
  if (!fail_type.empty()) return "failed";
  if (restart_count > 0) return "restarted";
  if (graph_op_count && *graph_op_count == 0) return "empty";
  return "ok";
}

std::vector<CompileInfo> load_compiles(const Database& db) {
  std::vector<CompileInfo> out;
  std::map<Key, size_t> index;
  Statement s = db.prepare(
      "SELECT rank, compile_id, min(id), count(*), min(compiled_autograd_id), min(frame_id), "
      "min(frame_compile_id), min(attempt) FROM events WHERE compile_id IS NOT NULL "
      "AND compile_id <> '' GROUP BY rank, compile_id ORDER BY min(id)");
  while (s.step()) {
    CompileInfo c;
    c.rank = s.opt_int64(0);
    c.compile_id = s.text(1);
    c.first_event = s.int64(2);
    c.event_count = s.int64(3);
    c.compiled_autograd_id = s.opt_int64(4);
    c.frame_id = s.opt_int64(5);
    c.frame_compile_id = s.opt_int64(6);
    c.attempt = s.opt_int64(7);
    index[key_of(c.rank, c.compile_id)] = out.size();
    out.push_back(std::move(c));
  }
  if (db.has_table("compilation_metrics")) {
    Statement m = db.prepare(
        "SELECT rank, compile_id, co_name, co_filename, co_firstlineno, fail_type, fail_reason, "
        "json_array_length(restart_reasons), graph_op_count, duration_us, recompile_reason "
        "FROM compilation_metrics WHERE kind = 'compilation_metrics' ORDER BY event_id");
    while (m.step()) {
      auto it = index.find(key_of(m.opt_int64(0), m.text(1)));
      if (it == index.end()) continue;
      CompileInfo& c = out[it->second];
      c.has_metrics = true;
      c.co_name = m.text(2);
      c.co_filename = m.text(3);
      c.co_firstlineno = m.int64(4);
      c.fail_type = m.text(5);
      c.fail_reason = m.text(6);
      c.restart_count = m.int64(7);
      c.graph_op_count = m.opt_int64(8);
      c.duration_us = m.real(9);
      c.recompile_reason = m.text(10);
    }
  }
  if (db.has_table("stack_frames")) {
    Statement f = db.prepare(
        "SELECT e.rank, e.compile_id, sf.filename, sf.line, sf.name FROM stack_frames sf "
        "JOIN events e ON e.id = sf.event_id WHERE e.kind = 'dynamo_start' "
        "ORDER BY sf.event_id, sf.depth");
    while (f.step()) {
      auto it = index.find(key_of(f.opt_int64(0), f.text(1)));
      if (it == index.end()) continue;
      std::string_view file = f.text_view(2);
      if (is_torch_internal(file) && !out[it->second].user_frame.empty()) continue;
      out[it->second].user_frame =
          std::string(file.empty() ? "(unknown)" : file) + ":" + std::to_string(f.int64(3)) +
          " in " + f.text(4);
    }
  }
  return out;
}

}  // namespace tlscope::exporters
