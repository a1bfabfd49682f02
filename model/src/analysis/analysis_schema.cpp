// Analysis table definitions. Every table is dropped and recreated on each `tlscope analyze`, so
// the results always reflect the ingest tables as they are now.
#include "analysis_schema.hpp"

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

namespace {

// Every analysis table: its name, the pass of analyze() that fills it, and its DDL. The order is
// the documented one (docs/schema.md, "Analysis tables").
constexpr AnalysisTable kAnalysisTables[] = {
    {"findings", "findings", R"sql(
CREATE TABLE findings(
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, severity TEXT NOT NULL, ranks TEXT NOT NULL,
  other_ranks TEXT NOT NULL, pg_name TEXT, pg_desc TEXT, seq INTEGER, compile_id TEXT,
  frame TEXT, file TEXT, line INTEGER, detail TEXT NOT NULL);)sql"},
    {"compiles", "compiles", R"sql(
CREATE TABLE compiles(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT NOT NULL,
  compiled_autograd_id INTEGER, frame_id INTEGER, frame_compile_id INTEGER,
  first_event_id INTEGER, last_event_id INTEGER, attempts INTEGER,
  co_name TEXT, co_filename TEXT, co_firstlineno INTEGER, status TEXT,
  fail_type TEXT, fail_reason TEXT, graph_op_count INTEGER, restart_count INTEGER,
  recompile_reason TEXT, cache_size INTEGER, duration_us REAL, metrics_event_id INTEGER,
  tree_node_id INTEGER);)sql"},
    {"compile_tree", "compile_tree", R"sql(
CREATE TABLE compile_tree(
  id INTEGER PRIMARY KEY, parent_id INTEGER, file_id INTEGER, rank INTEGER, depth INTEGER,
  filename TEXT, line INTEGER, name TEXT, compile_count INTEGER);)sql"},
    {"graph_breaks", "graph_breaks", R"sql(
CREATE TABLE graph_breaks(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, attempt INTEGER,
  frame TEXT, reason TEXT, user_file TEXT, user_line INTEGER, user_stack TEXT, source TEXT,
  event_id INTEGER, resume_compile_id TEXT);)sql"},
    {"graph_break_summary", "graph_breaks", R"sql(
CREATE TABLE graph_break_summary(
  id INTEGER PRIMARY KEY, reason TEXT, user_file TEXT, user_line INTEGER, count INTEGER,
  compile_ids TEXT, ranks TEXT, frames TEXT);)sql"},
    {"recompiles", "recompiles", R"sql(
CREATE TABLE recompiles(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, frame_id INTEGER, frame TEXT,
  compile_id TEXT, prev_compile_id TEXT, reason TEXT, guard_input TEXT, guard_property TEXT,
  guard_index INTEGER, expected TEXT, actual TEXT, all_reasons TEXT, event_id INTEGER);)sql"},
    {"cache_limit_hits", "recompiles", R"sql(
CREATE TABLE cache_limit_hits(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, frame_id INTEGER, frame TEXT,
  compile_id TEXT, cache_size INTEGER, cache_size_limit INTEGER, evidence TEXT);)sql"},
    {"dynamic_dims", "tensors", R"sql(
CREATE TABLE dynamic_dims(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, frame_id INTEGER, frame TEXT,
  compile_id TEXT, input TEXT, source TEXT, dim INTEGER, symbol TEXT);)sql"},
    {"failures", "failures_restarts", R"sql(
CREATE TABLE failures(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, frame TEXT,
  fail_type TEXT, fail_reason TEXT, user_file TEXT, user_line INTEGER, event_id INTEGER);)sql"},
    {"restarts", "failures_restarts", R"sql(
CREATE TABLE restarts(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, frame TEXT,
  attempt INTEGER, reason TEXT, event_id INTEGER);)sql"},
    {"cache_events", "compile_costs", R"sql(
CREATE TABLE cache_events(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, cache TEXT,
  result TEXT, event_id INTEGER);)sql"},
    {"compile_phases", "compile_costs", R"sql(
CREATE TABLE compile_phases(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, phase TEXT,
  source TEXT, start_us REAL, duration_us REAL);)sql"},
    {"compile_phase_tree", "phase_tree", R"sql(
CREATE TABLE compile_phase_tree(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, parent_id INTEGER,
  depth INTEGER, name TEXT, path TEXT, start_us REAL, duration_us REAL, self_us REAL,
  chromium_id INTEGER);)sql"},
    {"tensors", "tensors", R"sql(
CREATE TABLE tensors(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, attempt INTEGER,
  frame_id INTEGER, describer_id INTEGER, tensor_id INTEGER, source TEXT, input TEXT,
  dtype TEXT, device TEXT, size TEXT, stride TEXT, storage_offset INTEGER, storage_bytes INTEGER,
  requires_grad INTEGER, is_leaf INTEGER, is_view INTEGER, is_parameter INTEGER,
  symbolic INTEGER, event_id INTEGER);)sql"},
    {"tensor_shape_changes", "tensors", R"sql(
CREATE TABLE tensor_shape_changes(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, frame_id INTEGER, compile_id TEXT,
  prev_compile_id TEXT, input TEXT, source TEXT, prev_size TEXT, size TEXT, prev_stride TEXT,
  stride TEXT, prev_dtype TEXT, dtype TEXT);)sql"},
    {"rank_divergence", "rank_divergence", R"sql(
CREATE TABLE rank_divergence(
  id INTEGER PRIMARY KEY, aspect TEXT, compile_id TEXT, ranks TEXT, other_ranks TEXT,
  value TEXT, other_value TEXT, detail TEXT);)sql"},
    {"collectives", "collectives", R"sql(
CREATE TABLE collectives(
  id INTEGER PRIMARY KEY, event_id INTEGER, file_id INTEGER, rank INTEGER, compile_id TEXT,
  pg_name TEXT, pg_desc TEXT, pg_ranks TEXT, pg_size INTEGER, seq INTEGER, op TEXT,
  input_sizes TEXT, output_sizes TEXT, dtype TEXT, in_nelems INTEGER, out_nelems INTEGER,
  bytes INTEGER, state TEXT, created_us REAL, started_us REAL, completed_us REAL,
  timeout_ms REAL, peer INTEGER);)sql"},
    {"collective_matches", "collectives", R"sql(
CREATE TABLE collective_matches(
  id INTEGER PRIMARY KEY, pg_name TEXT, pg_desc TEXT, seq INTEGER, expected_ranks TEXT,
  present_ranks TEXT, missing_ranks TEXT, op TEXT, ops_agree INTEGER, sizes_agree INTEGER,
  dtypes_agree INTEGER, timed_out_ranks TEXT, bytes INTEGER, first_arrival_us REAL,
  last_arrival_us REAL, arrival_skew_us REAL, last_rank INTEGER, wait_us REAL,
  duration_us REAL, bandwidth_gbps REAL, last_lag_us REAL, others_spread_us REAL,
  last_idle_excess_us REAL);)sql"},
    {"collective_groups", "collectives", R"sql(
CREATE TABLE collective_groups(
  pg_name TEXT PRIMARY KEY, pg_desc TEXT, pg_ranks TEXT, collectives INTEGER, bytes INTEGER,
  busy_us REAL, bandwidth_gbps REAL, max_skew_us REAL);)sql"},
    {"collective_rank_lateness", "collectives", R"sql(
CREATE TABLE collective_rank_lateness(
  pg_name TEXT, rank INTEGER, times_last INTEGER, collectives INTEGER, wait_caused_us REAL,
  PRIMARY KEY(pg_name, rank));)sql"},
    {"collective_parity", "collective_parity", R"sql(
CREATE TABLE collective_parity(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, graph INTEGER,
  op TEXT, scheduled INTEGER, generated INTEGER, unwaited INTEGER, schedule_event_id INTEGER,
  code_event_id INTEGER);)sql"},
    {"graph_runtimes", "graph_runtimes", R"sql(
CREATE TABLE graph_runtimes(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, estimated_ns REAL,
  collective_ns REAL, ops INTEGER, artifacts INTEGER);)sql"},
    {"graph_runtime_spread", "graph_runtimes", R"sql(
CREATE TABLE graph_runtime_spread(
  id INTEGER PRIMARY KEY, compile_id TEXT, ranks TEXT, missing_ranks TEXT, fastest_rank INTEGER,
  fastest_ns REAL, slowest_rank INTEGER, slowest_ns REAL, difference_ns REAL);)sql"},
    {"provenance_graphs", "provenance", R"sql(
CREATE TABLE provenance_graphs(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, seq INTEGER,
  mode TEXT, pre_graph_event_id INTEGER, pre_graph_id INTEGER, post_graph_event_id INTEGER,
  code_event_id INTEGER, kernel_code_event_id INTEGER, node_mappings_event_id INTEGER,
  kernel_nodes_event_id INTEGER, post_to_pre_event_id INTEGER,
  stack_traces_event_id INTEGER);)sql"},
    {"provenance_node_links", "provenance", R"sql(
CREATE TABLE provenance_node_links(
  id INTEGER PRIMARY KEY, graph_id INTEGER, pre_node TEXT, post_node TEXT, source TEXT,
  event_id INTEGER);)sql"},
    {"provenance_kernel_links", "provenance", R"sql(
CREATE TABLE provenance_kernel_links(
  id INTEGER PRIMARY KEY, graph_id INTEGER, kernel_key TEXT, kernel TEXT,
  debug_handle INTEGER, backend TEXT, post_node TEXT, source TEXT, event_id INTEGER);)sql"},
    {"provenance_code_lines", "provenance", R"sql(
CREATE TABLE provenance_code_lines(
  id INTEGER PRIMARY KEY, graph_id INTEGER, kernel_key TEXT, kernel TEXT, event_id INTEGER,
  code TEXT, line INTEGER, end_line INTEGER, role TEXT);)sql"},
    {"provenance_node_lines", "provenance", R"sql(
CREATE TABLE provenance_node_lines(
  id INTEGER PRIMARY KEY, graph_id INTEGER, pane TEXT, node TEXT, event_id INTEGER,
  line INTEGER);)sql"},
    {"provenance_kernel_stacks", "provenance", R"sql(
CREATE TABLE provenance_kernel_stacks(
  id INTEGER PRIMARY KEY, graph_id INTEGER, kernel_key TEXT, kernel TEXT, stack TEXT,
  event_id INTEGER);)sql"},
    {"provenance_errors", "provenance", R"sql(
CREATE TABLE provenance_errors(
  id INTEGER PRIMARY KEY, graph_id INTEGER, file_id INTEGER, rank INTEGER, compile_id TEXT,
  event_id INTEGER, artifact TEXT, line INTEGER, problem TEXT, section TEXT, json_type TEXT);)sql"},
    {"vllm_config", "vllm", R"sql(
CREATE TABLE vllm_config(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, call_index INTEGER, compile_id TEXT,
  key TEXT, value TEXT, type TEXT, event_id INTEGER);)sql"},
    {"vllm_piecewise", "vllm", R"sql(
CREATE TABLE vllm_piecewise(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, call_index INTEGER, compile_id TEXT,
  piecewise_index INTEGER, submod_name TEXT, total_piecewise_compiles INTEGER,
  range_start INTEGER, range_end INTEGER, is_single_size INTEGER,
  is_cudagraph_capture_size INTEGER, event_id INTEGER);)sql"},
    {"vllm_artifacts", "vllm", R"sql(
CREATE TABLE vllm_artifacts(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, call_index INTEGER,
  piecewise_id INTEGER, compile_id TEXT, kind TEXT, name TEXT, role TEXT, event_id INTEGER,
  payload_id INTEGER);)sql"},
    {"vllm_post_grad_passes", "vllm", R"sql(
CREATE TABLE vllm_post_grad_passes(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, call_index INTEGER,
  piecewise_id INTEGER, compile_id TEXT, chain INTEGER, pass_index INTEGER, pass_name TEXT,
  event_id INTEGER, base_event_id INTEGER, patterns_event_id INTEGER, lines_added INTEGER,
  lines_removed INTEGER);)sql"},
    {"shape_symbols", "symbolic_shapes", R"sql(
CREATE TABLE shape_symbols(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, symbol TEXT,
  unbacked INTEGER, value TEXT, value_range TEXT, source TEXT, node_id INTEGER,
  user_file TEXT, user_line INTEGER, user_name TEXT, user_code TEXT, event_id INTEGER);)sql"},
    {"shape_specializations", "symbolic_shapes", R"sql(
CREATE TABLE shape_specializations(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, symbol TEXT,
  sources TEXT, value TEXT, reason TEXT, user_file TEXT, user_line INTEGER, user_name TEXT,
  user_code TEXT, event_id INTEGER);)sql"},
    {"shape_guards", "symbolic_shapes", R"sql(
CREATE TABLE shape_guards(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, kind TEXT, expr TEXT,
  symbols TEXT, sources TEXT, expr_node_id INTEGER, user_file TEXT, user_line INTEGER,
  user_name TEXT, user_code TEXT, event_id INTEGER);)sql"},
    {"shape_expressions", "symbolic_shapes", R"sql(
CREATE TABLE shape_expressions(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, method TEXT,
  result TEXT, result_id INTEGER, arguments TEXT, argument_ids TEXT, user_file TEXT,
  user_line INTEGER, user_name TEXT, user_code TEXT, event_id INTEGER);)sql"},
    {"export_issues", "symbolic_shapes", R"sql(
CREATE TABLE export_issues(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, kind TEXT, op TEXT,
  expr TEXT, result TEXT, reason TEXT, symbols TEXT, sources TEXT, locals TEXT,
  expr_node_id INTEGER, user_file TEXT, user_line INTEGER, user_name TEXT, user_code TEXT,
  event_id INTEGER);)sql"},
    {"run_info", "run_environment", R"sql(
CREATE TABLE run_info(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, key TEXT, value TEXT, source TEXT,
  event_id INTEGER);)sql"},
    {"run_config", "run_environment", R"sql(
CREATE TABLE run_config(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, scope TEXT, key TEXT, value TEXT,
  source TEXT, event_id INTEGER);)sql"},
    {"pgo_profiles", "pgo_profiles", R"sql(
CREATE TABLE pgo_profiles(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, event_id INTEGER,
  name TEXT, action TEXT, store TEXT, frames INTEGER, entries INTEGER, dynamic_entries INTEGER,
  suggested_sources TEXT);)sql"},
    {"pgo_profile_entries", "pgo_profiles", R"sql(
CREATE TABLE pgo_profile_entries(
  id INTEGER PRIMARY KEY, profile_id INTEGER, file_id INTEGER, rank INTEGER, code_id TEXT,
  filename TEXT, firstlineno INTEGER, function TEXT, source TEXT, entry TEXT,
  dynamic INTEGER);)sql"},
    {"dynamo_cache_records", "dynamo_cache", R"sql(
CREATE TABLE dynamo_cache_records(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, event_id INTEGER,
  name TEXT, outcome TEXT, entries INTEGER, backends INTEGER, keys TEXT, detail TEXT);)sql"},
    {"overlap_schedules", "overlap_scheduling", R"sql(
CREATE TABLE overlap_schedules(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, event_id INTEGER,
  scheduler TEXT, stage TEXT, lines INTEGER, collectives INTEGER, waits INTEGER,
  before_event_id INTEGER, lines_added INTEGER, lines_removed INTEGER);)sql"},
    {"node_runtime_estimates", "overlap_scheduling", R"sql(
CREATE TABLE node_runtime_estimates(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, event_id INTEGER,
  world_size INTEGER, collective TEXT, benchmarked_ms REAL, analytical_nccl_ms REAL,
  analytical_inductor_ms REAL);)sql"},
    {"fx_buckets", "fx_bucketing", R"sql(
CREATE TABLE fx_buckets(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, event_id INTEGER,
  name TEXT, collective TEXT, bucket_index INTEGER, size INTEGER, nodes TEXT);)sql"},
    {"spmd_graph_mismatches", "spmd_mismatch", R"sql(
CREATE TABLE spmd_graph_mismatches(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT, event_id INTEGER,
  reporting_rank INTEGER, world_size INTEGER, graph TEXT, ranks TEXT NOT NULL,
  node_counts TEXT NOT NULL, node_index INTEGER, reference_node TEXT, other_rank INTEGER,
  other_node TEXT);)sql"},
};

}  // namespace

std::string compile_key_sql(SqlName column) {
  const std::string c(column.name);
  return "(CASE WHEN instr(" + c + ", '_') > 0 THEN substr(" + c + ", 1, instr(" + c +
         ", '_') - 1) ELSE " + c + " END)";
}

std::string attempt_sql(SqlName column) {
  const std::string c(column.name);
  return "(CASE WHEN instr(" + c + ", '_') > 0 THEN CAST(substr(" + c + ", instr(" + c +
         ", '_') + 1) AS INTEGER) ELSE 0 END)";
}

std::span<const AnalysisTable> analysis_tables() {
  return kAnalysisTables;
}

void recreate_analysis_tables(sqlite3* db) {
  // main.: the unqualified name is the connection's TEMP copy (connection_guard.hpp).
  exec(db, "DROP VIEW IF EXISTS main.compile_directory");
  for (const AnalysisTable& t : kAnalysisTables) {
    exec(db, std::string("DROP TABLE IF EXISTS ") + t.name);
    exec(db, t.ddl);
  }
  for (const OwnView& v : own_views()) {
    if (v.with_analysis) exec(db, own_view_ddl(v, false));
  }
  // The view joins each compile to its file's events by frame: without file_id leading the index,
  // every rank's frame 0/0 events were visited for each compile, quadratic in ranks (a 1,024-rank
  // report spent a minute there). Ingest builds it; this covers databases ingested before it.
  exec(db,
       "CREATE INDEX IF NOT EXISTS events_file_frame ON events(file_id, frame_id, "
       "frame_compile_id)");
}

}  // namespace tlscope::model::analysis
