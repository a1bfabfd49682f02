// The analysis passes, in the order analyze() runs them. Each reads ingest tables (and the
// analysis tables of earlier passes) and fills its own tables with set-based SQL or one streaming
// pass; none issues a query per row. A pass must name its tables unqualified (temp.* aside): on a
// large database the ones marked beside in analyze.cpp run on a second connection, where the
// ingest tables are an attached database.
#pragma once

#include <sqlite3.h>

#include <string>

#include "tlscope/model/analysis/finding_kinds.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

// compilation_metrics_rows, the one name the passes read compilation_metrics' typed columns by:
// the ingest's table, or in a version-2 file a TEMP view or copy that drop_metrics_rows removes
// when the analysis is done.
void build_metrics_rows(sqlite3* db);
void drop_metrics_rows(sqlite3* db);
void build_compiles(sqlite3* db);           // compiles (status, metrics summary)
void build_compile_tree(sqlite3* db);       // compile_tree + compiles.tree_node_id
void build_failures_restarts(sqlite3* db);  // failures, restarts
void build_graph_breaks(sqlite3* db);       // graph_breaks, graph_break_summary
void build_recompiles(sqlite3* db);         // recompiles, cache_limit_hits
void build_tensors(sqlite3* db);            // tensors, tensor_shape_changes, dynamic_dims
void build_compile_costs(sqlite3* db);      // cache_events, compile_phases
void build_rank_divergence(sqlite3* db);    // rank_divergence
void build_collectives(sqlite3* db);        // collectives, collective_matches, groups, lateness
void build_collective_parity(sqlite3* db);  // collective_parity (schedule against code)
void build_graph_runtimes(sqlite3* db);     // graph_runtimes, graph_runtime_spread
void build_provenance(sqlite3* db);         // provenance_* (pre/post-grad nodes, kernels, lines)
void build_symbolic_shapes(sqlite3* db);    // shape_symbols, _specializations, _guards, ...
void build_phase_tree(sqlite3* db);         // compile_phase_tree (chromium spans nested)
void build_vllm(sqlite3* db);             // vllm_config, _piecewise, _artifacts, _post_grad_passes
void build_run_environment(sqlite3* db);  // run_info, run_config (PyTorch version, config)
void build_pgo_profiles(sqlite3* db);     // pgo_profiles, pgo_profile_entries
void build_dynamo_cache(sqlite3* db);     // dynamo_cache_records
void build_overlap_scheduling(sqlite3* db);  // overlap_schedules, node_runtime_estimates
void build_fx_bucketing(sqlite3* db);        // fx_buckets
void build_spmd_mismatch(sqlite3* db);       // spmd_graph_mismatches
void build_findings(sqlite3* db);            // findings, from all of the above

// The part of build_findings that lives beside the collective analysis.
void collective_findings(sqlite3* db);         // desync, missing_collective, straggler, bad_record
void collective_parity_findings(sqlite3* db);  // collective_parity
// The part beside the symbolic-shapes analysis.
void shape_findings(sqlite3* db);  // shape_specialized
// The part beside the SPMD graph check.
void spmd_findings(sqlite3* db);  // spmd_graph_mismatch

// A finding's kind and severity, from the one list (finding_kinds.hpp), bound as ?1 and ?2 of
// an insert into findings: a kind never reaches SQL text. Bind again after each run() (it clears
// the bindings).
inline void bind_kind(Statement& insert, FindingKind id) {
  insert.bind(1, finding_kind(id).kind).bind(2, finding_kind(id).severity);
}
// An INSERT ... SELECT into findings of one kind, whose SQL takes the kind and severity as ?1 and
// ?2 (bound here) and any parameters of its own from ?3; run() it.
inline Statement insert_findings(sqlite3* db, FindingKind id, std::string_view sql) {
  Statement insert(db, sql);
  bind_kind(insert, id);
  return insert;
}

}  // namespace tlscope::model::analysis
