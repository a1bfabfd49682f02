// The analysis passes, in the order analyze() runs them. Each reads ingest tables (and the
// analysis tables of earlier passes) and fills its own tables with set-based SQL or one streaming
// pass; none issues a query per row. A pass must name its tables unqualified (temp.* aside): on a
// large database the ones marked beside in analyze.cpp run on a second connection, where the
// ingest tables are an attached database.
#pragma once

#include <sqlite3.h>

#include <string>

#include "sql.hpp"
#include "tlscope/model/analysis/finding_kinds.hpp"

namespace tlscope::model::analysis {

void build_metrics_rows(sqlite3* db);  // temp.metrics_rows (compilation_metrics sans json)
// The table the passes read compilation_metrics' typed columns from: the copy when
// build_metrics_rows made one (a large table), else the ingest table itself.
std::string metrics_table(sqlite3* db);
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
void build_run_environment(sqlite3* db);    // run_info, run_config (PyTorch version, config)
void build_findings(sqlite3* db);           // findings, from all of the above

// The part of build_findings that lives beside the collective analysis.
void collective_findings(sqlite3* db);         // desync, missing_collective, straggler, bad_record
void collective_parity_findings(sqlite3* db);  // collective_parity
// The part beside the symbolic-shapes analysis.
void shape_findings(sqlite3* db);  // shape_specialized

// A finding's kind and severity, from the one list (finding_kinds.hpp): as the SQL literals
// "'graph_break', 'warning'" for an INSERT ... SELECT, or bound as ?1 and ?2.
inline std::string kind_severity(FindingKind id) {
  const FindingKindInfo& k = finding_kind(id);
  // Appended piece by piece: `"'" + std::string(...)` trips GCC 12's -Wrestrict false positive
  // (GCC bug 105329) in every pass that includes this header.
  std::string out = "'";
  out += k.kind;
  out += "', '";
  out += k.severity;
  out += '\'';
  return out;
}
inline void bind_kind(Statement& insert, FindingKind id) {
  insert.bind(1, finding_kind(id).kind).bind(2, finding_kind(id).severity);
}

}  // namespace tlscope::model::analysis
