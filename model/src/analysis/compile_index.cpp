// Compiles and the compile tree: one row per compile id per rank with the status tlparse's index
// shows (ok, failed, empty graph, restarted, no metrics), and the trie of dynamo_start stacks.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

void build_compiles(sqlite3* db) {
  const std::string key = compile_key_sql("e.compile_id");
  // Only the events that define a compile are read (their ids through the events(kind) index);
  // chromium events, which dominate large logs, are not needed to know which compiles exist. The
  // ids are taken first so the rows are read in rowid order, each table page once: read kind by
  // kind, the pages were fetched again for every kind (a compilation_metrics row is a whole 16 KB
  // page of JSON), 0.55 against 0.2 CPU-s on the 1 GB benchmark log.
  exec(db,
       "INSERT INTO compiles(file_id, rank, compile_id, compiled_autograd_id, frame_id, "
       "frame_compile_id, first_event_id, last_event_id, attempts) "
       "SELECT e.file_id, COALESCE(f.rank, e.rank), " +
           key +
           ", e.compiled_autograd_id, "
           "e.frame_id, e.frame_compile_id, min(e.id), max(e.id), "
           "max(COALESCE(e.attempt, 0)) + 1 "
           "FROM events e JOIN files f ON f.id = e.file_id "
           "WHERE e.id IN (SELECT id FROM events WHERE kind IN ('dynamo_start', "
           "'compilation_metrics', 'bwd_compilation_metrics', "
           "'dynamo_output_graph', 'compiled_autograd_graph', 'aot_forward_graph', "
           "'aot_backward_graph', 'aot_inference_graph', 'aot_joint_graph', "
           "'inductor_output_code', 'dynamo_guards', 'dynamo_cpp_guards_str', 'artifact', "
           "'describe_tensor')) AND e.compile_id IS NOT NULL AND e.compile_id <> '' "
           "GROUP BY e.file_id, " +
           key + " ORDER BY min(e.id)");
  exec(db, "CREATE INDEX compiles_key ON compiles(file_id, compile_id)");

  // The last forward metrics record of a compile describes its final attempt. The records are
  // grouped by their ids alone and each final one read once after: grouping them whole sorted
  // every text of every record. Its texts are clipped as they are read (tlscope_clip,
  // cell_text.hpp) and its restart list counted: a 100 MB reason or name was otherwise copied
  // through the sort, into this table, into compiles, and again by each UPDATE that rewrote a
  // compiles row (9.3 CPU-s for one such record).
  const std::string key_of = compile_key_sql("compile_id");
  exec(db,
       "CREATE TEMP TABLE final_metrics AS "
       "SELECT f.file_id, f.cid, f.event_id, tlscope_clip(m.co_name) AS co_name, "
       "tlscope_clip(m.co_filename) AS co_filename, m.co_firstlineno, "
       "tlscope_clip(m.fail_type) AS fail_type, tlscope_clip(m.fail_reason) AS fail_reason, "
       "m.graph_op_count, CASE WHEN json_valid(m.restart_reasons) "
       "  THEN json_array_length(m.restart_reasons) ELSE 0 END AS restart_count, "
       "tlscope_clip(m.recompile_reason) AS recompile_reason, m.cache_size, m.duration_us, "
       "m.entire_frame_compile_time_s, m.start_time_us, m.end_time_us "
       "FROM (SELECT file_id, " +
           key_of +
           " AS cid, max(event_id) AS event_id FROM compilation_metrics_rows "
           "WHERE kind = 'compilation_metrics' AND compile_id IS NOT NULL GROUP BY file_id, " +
           key_of +
           ") f JOIN compilation_metrics_rows m ON m.event_id = f.event_id ORDER BY f.file_id, "
           "f.cid");
  exec(db,
       "UPDATE compiles SET metrics_event_id = fm.event_id, co_name = fm.co_name, "
       "co_filename = fm.co_filename, co_firstlineno = fm.co_firstlineno, "
       "fail_type = fm.fail_type, fail_reason = fm.fail_reason, "
       "graph_op_count = fm.graph_op_count, recompile_reason = fm.recompile_reason, "
       "cache_size = fm.cache_size, "
       "restart_count = fm.restart_count, "
       "duration_us = COALESCE(fm.duration_us, fm.end_time_us - fm.start_time_us, "
       "  fm.entire_frame_compile_time_s * 1e6) "
       "FROM temp.final_metrics fm "
       "WHERE fm.file_id = compiles.file_id AND fm.cid = compiles.compile_id");
  // Metrics whose compile left no other event (rare, but then the compile still exists).
  exec(db,
       "INSERT INTO compiles(file_id, rank, compile_id, first_event_id, last_event_id, "
       "attempts, metrics_event_id, co_name, co_filename, co_firstlineno, fail_type, "
       "fail_reason, graph_op_count, recompile_reason, cache_size, restart_count, "
       "duration_us, frame_id, frame_compile_id) "
       "SELECT fm.file_id, COALESCE(f.rank, e.rank), fm.cid, fm.event_id, fm.event_id, 1, "
       "fm.event_id, fm.co_name, fm.co_filename, fm.co_firstlineno, fm.fail_type, "
       "fm.fail_reason, fm.graph_op_count, fm.recompile_reason, fm.cache_size, "
       "fm.restart_count, "
       "COALESCE(fm.duration_us, fm.end_time_us - fm.start_time_us, "
       "  fm.entire_frame_compile_time_s * 1e6), e.frame_id, e.frame_compile_id "
       "FROM temp.final_metrics fm JOIN events e ON e.id = fm.event_id "
       "JOIN files f ON f.id = fm.file_id "
       "WHERE NOT EXISTS (SELECT 1 FROM compiles c WHERE c.file_id = fm.file_id "
       "AND c.compile_id = fm.cid)");
  exec(db,
       "UPDATE compiles SET status = CASE "
       "WHEN metrics_event_id IS NULL THEN 'no_metrics' "
       "WHEN fail_type IS NOT NULL THEN 'failed' "
       "WHEN graph_op_count IS NULL OR graph_op_count = 0 THEN 'empty' "
       "WHEN restart_count > 0 OR attempts > 1 THEN 'restarted' "
       "ELSE 'ok' END");
  exec(db, "DROP TABLE temp.final_metrics");
}

namespace {

// tlparse drops the trailing convert_frame.py frames: they are dynamo's own machinery.
bool is_dynamo_internal(const std::string& filename) {
  static const std::string suffix = "_dynamo/convert_frame.py";
  return filename.size() >= suffix.size() &&
         filename.compare(filename.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct Frame {
  std::string filename;
  int64_t line;
  std::string name;
};

}  // namespace

void build_compile_tree(sqlite3* db) {
  // The dynamo_start events in log order with the stacks they carry. Logs repeat a few stacks
  // over and over (6,802 starts, 27 distinct stacks in the 1 GB benchmark log), so each stack's
  // frames are read once, and an event whose file already walked its stack reuses the node that
  // walk ended at: the same frames always lead to the same node. Reading the frames per event
  // through stack_frames sorted 212,000 rows and looked each up in the trie (0.1 s).
  Statement starts(db, "SELECT e.id, e.file_id, COALESCE(f.rank, e.rank), " +
                           compile_key_sql("e.compile_id") +
                           ", es.stack_id FROM events e JOIN files f ON f.id = e.file_id "
                           "JOIN event_stacks es ON es.event_id = e.id "
                           "WHERE e.id IN (SELECT id FROM events WHERE kind = 'dynamo_start') "
                           "ORDER BY e.id, es.rowid");
  Statement stack_frames(db,
                         "SELECT depth, COALESCE(filename, '(unknown)'), line, name FROM stacks "
                         "WHERE stack_id = ?1 ORDER BY depth");
  Statement insert_node(db,
                        "INSERT INTO compile_tree(id, parent_id, file_id, rank, depth, filename, "
                        "line, name, compile_count) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0)");
  Statement attach(db,
                   "UPDATE compiles SET tree_node_id = ?1 WHERE file_id = ?2 AND compile_id = ?3 "
                   "AND tree_node_id IS NULL");
  // (file, parent node, filename, line, name) -> node id; parent 0 is the root of a file.
  std::map<std::tuple<int64_t, int64_t, std::string, int64_t, std::string>, int64_t> nodes;
  int64_t next_id = 1;
  // stack_id -> its frames (depth, frame), in depth order.
  std::map<int64_t, std::vector<std::pair<int64_t, Frame>>> frames_of;
  auto frames = [&](int64_t stack_id) -> const std::vector<std::pair<int64_t, Frame>>& {
    auto it = frames_of.find(stack_id);
    if (it != frames_of.end()) return it->second;
    std::vector<std::pair<int64_t, Frame>> read;
    stack_frames.bind(1, stack_id);
    while (stack_frames.step())
      read.push_back({stack_frames.int64(0),
                      {stack_frames.text(1), stack_frames.int64(2), stack_frames.text(3)}});
    stack_frames.reset();
    return frames_of.emplace(stack_id, std::move(read)).first->second;
  };
  // (file, stack) -> the node its walk ended at (0: none).
  std::map<std::pair<int64_t, int64_t>, int64_t> walked;

  int64_t current_event = -1, file_id = 0;
  std::optional<int64_t> rank;
  std::string cid;
  std::vector<int64_t> stacks;  // of the current event; one in every log seen so far
  auto flush = [&]() {
    if (current_event < 0) return;
    int64_t parent = 0;
    auto known = stacks.size() == 1 ? walked.find({file_id, stacks[0]}) : walked.end();
    if (known != walked.end()) {
      parent = known->second;
    } else {
      // The event's frames in depth order (several stacks of one event interleave by depth).
      std::vector<std::pair<int64_t, Frame>> merged;
      for (int64_t stack_id : stacks) {
        const auto& f = frames(stack_id);
        merged.insert(merged.end(), f.begin(), f.end());
      }
      if (stacks.size() > 1)
        std::stable_sort(merged.begin(), merged.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
      std::vector<const Frame*> stack;
      for (const auto& [depth, frame] : merged) stack.push_back(&frame);
      while (!stack.empty() && is_dynamo_internal(stack.back()->filename)) stack.pop_back();
      for (size_t depth = 0; depth < stack.size(); ++depth) {
        const Frame& f = *stack[depth];
        auto k = std::make_tuple(file_id, parent, f.filename, f.line, f.name);
        auto it = nodes.find(k);
        if (it == nodes.end()) {
          it = nodes.emplace(k, next_id++).first;
          insert_node.bind(1, it->second);
          if (parent)
            insert_node.bind(2, parent);
          else
            insert_node.bind_null(2);
          insert_node.bind(3, file_id).bind(4, rank).bind(5, static_cast<int64_t>(depth));
          // A frame's names come from the log: written clipped, like compiles' (cell_text.hpp).
          insert_node.bind_clipped(6, f.filename).bind(7, f.line);
          insert_node.bind_clipped(8, f.name).run();
        }
        parent = it->second;
      }
      if (stacks.size() == 1) walked[{file_id, stacks[0]}] = parent;
    }
    if (parent && !cid.empty()) attach.bind(1, parent).bind(2, file_id).bind(3, cid).run();
    stacks.clear();
  };
  while (starts.step()) {
    int64_t event = starts.int64(0);
    if (event != current_event) {
      flush();
      current_event = event;
      file_id = starts.int64(1);
      rank = starts.opt_int64(2);
      cid = starts.text(3);
    }
    stacks.push_back(starts.int64(4));
  }
  flush();
  exec(db,
       "UPDATE compile_tree SET compile_count = n.count FROM (SELECT tree_node_id, "
       "count(*) AS count FROM compiles WHERE tree_node_id IS NOT NULL GROUP BY tree_node_id)"
       " AS n WHERE n.tree_node_id = compile_tree.id");
}

}  // namespace tlscope::model::analysis
