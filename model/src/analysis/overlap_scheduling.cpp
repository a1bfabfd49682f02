// Inductor's compute/communication overlap scheduler (torch/_inductor/fx_passes/
// overlap_scheduling.py and its ILP variant): the graph before and after it reordered the
// collectives (`overlap_scheduling_graph_before` / `_after`, `ilp_overlap_scheduling_graph_*`,
// string payloads of GraphModule.print_readable), and `node_runtime_estimation`, the collective
// runtimes it benchmarked and estimated (JSON: {"world_size": n, "collective_benchmarks": {key:
// {"benchmarked_ms", "analytical_nccl_ms", "analytical_inductor_ms"}}}).
// Each graph row counts the collectives issued and waited on; an `after` row is paired with the
// latest `before` of the same scheduler, file and compile and counts the lines the pass changed.
#include <map>
#include <string>
#include <tuple>

#include "artifact_records.hpp"
#include "passes.hpp"
#include "tlscope/model/analysis/line_diff.hpp"

namespace tlscope::model::analysis {

namespace {

struct GraphCounts {
  int64_t lines = 0, collectives = 0, waits = 0;
};

// A collective is a call of a functional collective op (torch.ops._c10d_functional.*, the
// legacy c10d_functional, or the _dtensor/fsdp bucketed wrappers that call into them); a
// wait is wait_tensor.
GraphCounts count_graph(std::string_view text) {
  GraphCounts c;
  for_each_line(text, [&](std::string_view line) {
    ++c.lines;
    if (line.find("c10d_functional.") == std::string_view::npos) return;
    if (line.find("wait_tensor") != std::string_view::npos)
      ++c.waits;
    else
      ++c.collectives;
  });
  return c;
}

}  // namespace

void build_overlap_scheduling(sqlite3* db) {
  Statement add(db,
                "INSERT INTO overlap_schedules(file_id, rank, compile_id, event_id, scheduler, "
                "stage, lines, collectives, waits, before_event_id, lines_added, lines_removed) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  // The latest `before` text per (file, compile, scheduler): an `after` is diffed against it.
  std::map<std::tuple<int64_t, std::string, std::string>, std::pair<int64_t, std::string>> before;
  for_each_artifact(
      db,
      "a.name IN ('overlap_scheduling_graph_before', 'overlap_scheduling_graph_after', "
      "'ilp_overlap_scheduling_graph_before', 'ilp_overlap_scheduling_graph_after')",
      [&](const ArtifactRecord& r) {
        const bool ilp = r.name.starts_with("ilp_");
        const std::string scheduler = ilp ? "ilp" : "greedy";
        const bool is_before = r.name.ends_with("_before");
        const GraphCounts c = count_graph(r.payload);
        auto key = std::make_tuple(r.file_id, r.compile_id.value_or(""), scheduler);
        std::optional<int64_t> before_event, added, removed;
        if (is_before) {
          before[key] = {r.event_id, std::string(r.payload)};
        } else if (auto it = before.find(key); it != before.end()) {
          before_event = it->second.first;
          const DiffCounts d = count_changes(line_diff(it->second.second, r.payload));
          added = static_cast<int64_t>(d.added);
          removed = static_cast<int64_t>(d.removed);
        }
        add.bind(1, r.file_id).bind(2, r.rank).bind(3, r.compile_id).bind(4, r.event_id);
        add.bind(5, scheduler).bind(6, is_before ? "before" : "after").bind(7, c.lines);
        add.bind(8, c.collectives).bind(9, c.waits).bind(10, before_event).bind(11, added);
        add.bind(12, removed).run();
      });

  if (!has_rows(db, "artifacts WHERE name = 'node_runtime_estimation'")) return;
  exec(db,
       "INSERT INTO node_runtime_estimates(file_id, rank, compile_id, event_id, world_size, "
       "collective, benchmarked_ms, analytical_nccl_ms, analytical_inductor_ms) "
       "SELECT a.file_id, COALESCE(f.rank, a.rank), a.compile_id, a.event_id, "
       "json_extract(p.text, '$.world_size'), tlscope_clip(b.key), "
       "CASE WHEN b.type = 'object' THEN json_extract(b.value, '$.benchmarked_ms') END, "
       "CASE WHEN b.type = 'object' THEN json_extract(b.value, '$.analytical_nccl_ms') END, "
       "CASE WHEN b.type = 'object' THEN json_extract(b.value, '$.analytical_inductor_ms') END "
       "FROM artifacts a JOIN files f ON f.id = a.file_id JOIN payloads p ON p.id = "
       "a.payload_id, json_each(CASE WHEN json_valid(p.text) AND json_type(p.text, "
       "'$.collective_benchmarks') = 'object' THEN p.text ELSE '{}' END, "
       "'$.collective_benchmarks') b WHERE a.name = 'node_runtime_estimation' "
       "ORDER BY a.event_id, b.id");
}

}  // namespace tlscope::model::analysis
