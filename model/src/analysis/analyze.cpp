// The analysis driver: recreates the analysis tables and runs every pass inside one transaction,
// timing each pass so `tlscope analyze` can show where the time goes.
#include "tlscope/model/analysis/analyze.hpp"

#include <sys/stat.h>

#include <chrono>
#include <memory>

#include "analysis_schema.hpp"
#include "concurrent_passes.hpp"
#include "passes.hpp"
#include "sql.hpp"
#include "tlscope/model/analysis/recompiles.hpp"
#include "tlscope/model/cell_text.hpp"

namespace tlscope::model::analysis {

namespace {

void input_name_function(sqlite3_context* ctx, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    sqlite3_result_null(ctx);
    return;
  }
  auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  std::string name = input_name(std::string_view(text, sqlite3_value_bytes(argv[0])));
  sqlite3_result_text(ctx, name.data(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
}

// What the analysis covered: the files as they were (their event counts and completion). A front
// end compares it with `files` to tell an analysis that no longer describes the whole database
// (a later `ingest --no-analyze`, a replaced or still-incomplete file) from a current one.
// Keyed by file_id: front ends look each file up in it (a table without a key made that a scan
// per file, quadratic in the file count).
constexpr const char* kRecordCoverage =
    "DROP TABLE IF EXISTS analysis_files;"
    "CREATE TABLE analysis_files(file_id INTEGER PRIMARY KEY, events INTEGER, completed INTEGER);"
    "INSERT INTO analysis_files SELECT id, events, completed FROM files;";

constexpr const char* kRequiredTables[] = {
    "files",           "events",           "payloads",        "stack_frames", "compilation_metrics",
    "describe_tensor", "describe_storage", "describe_source", "artifacts",    "chromium_events"};

// The passes in the order a serial analysis runs them, and what each reads. "ingest" is the
// ingest tables (files, events, payloads, artifacts, stacks, describe_*, chromium_events,
// compilation_metrics); metrics is compilation_metrics_rows (temp.metrics_rows, the copy
// metrics_rows makes of a schema version 2 database's compilation_metrics).
//
//   metrics_rows       ingest                                  -> temp.metrics_rows
//   compiles           ingest, metrics                         -> compiles
//   compile_tree       ingest, compiles                        -> compile_tree, compiles
//   failures_restarts  ingest, metrics, compiles               -> failures, restarts
//   graph_breaks       ingest, compiles, restarts              -> graph_breaks, _summary
//   recompiles         ingest, compiles                        -> recompiles, cache_limit_hits
//   tensors            ingest, compiles                        -> tensors, shape changes, dims
//   compile_costs      ingest, metrics, compiles               -> cache_events, compile_phases
//   rank_divergence    ingest, cache_events                    -> rank_divergence
//   collectives        ingest, compile_phases                  -> collectives, matches, ...
//   collective_parity  ingest                                  -> collective_parity     [beside]
//   graph_runtimes     ingest                                  -> graph_runtimes, _spread [beside]
//   provenance         ingest                                  -> provenance_*          [beside]
//   symbolic_shapes    ingest                                  -> shape_*, export_issues [beside]
//   phase_tree         ingest (chromium_events, a view)        -> compile_phase_tree
//   vllm               ingest                                  -> vllm_*                [beside]
//   run_environment    ingest                                  -> run_info, run_config
//   findings           every table above                       -> findings
//
// The passes marked beside read nothing another pass writes, so on a large database they run on
// a second connection (concurrent_passes.hpp) while this one runs the rest; their rows are
// copied in before the first pass listed after them that runs here (findings, which reads
// them). Each table is written by one pass only, so its rows and rowids are those of a serial
// run. A pass that fails is reported as a serial run would report it: the first in this order.
struct Pass {
  const char* name;
  void (*run)(sqlite3*);
  bool beside;  // reads only ingest tables: may run on the second connection
};
constexpr Pass kPasses[] = {
    {"metrics_rows", build_metrics_rows, false},
    {"compiles", build_compiles, false},
    {"compile_tree", build_compile_tree, false},
    {"failures_restarts", build_failures_restarts, false},
    {"graph_breaks", build_graph_breaks, false},
    {"recompiles", build_recompiles, false},
    {"tensors", build_tensors, false},
    {"compile_costs", build_compile_costs, false},
    {"rank_divergence", build_rank_divergence, false},
    {"collectives", build_collectives, false},
    {"collective_parity", build_collective_parity, true},
    {"graph_runtimes", build_graph_runtimes, true},
    {"provenance", build_provenance, true},
    {"symbolic_shapes", build_symbolic_shapes, true},
    {"phase_tree", build_phase_tree, false},
    {"vllm", build_vllm, true},
    {"run_environment", build_run_environment, false},
    {"findings", build_findings, false},
};
constexpr size_t kPassCount = sizeof kPasses / sizeof kPasses[0];

// The size of the database's file (0 in memory): a stat, cheaper than asking SQLite, and for a
// threshold the pages still in a write-ahead log need not count.
int64_t database_bytes(sqlite3* db) {
  const char* file = sqlite3_db_filename(db, "main");
  struct stat st;
  if (file == nullptr || file[0] == '\0' || ::stat(file, &st) != 0) return 0;
  return st.st_size;
}

// Starts the beside passes on a second connection; null when the file cannot be read that way
// (they then run here, in their place).
std::unique_ptr<ConcurrentPasses> start_beside(sqlite3* db, std::vector<size_t>& beside) {
  std::vector<ConcurrentPass> passes;
  for (size_t i = 0; i < kPassCount; ++i) {
    if (!kPasses[i].beside) continue;
    beside.push_back(i);
    passes.push_back({kPasses[i].name, kPasses[i].run});
  }
  auto concurrent = ConcurrentPasses::start(db, std::move(passes));
  if (!concurrent) beside.clear();
  return concurrent;
}

// The tables the beside passes write (analysis_tables() names each table's pass).
std::vector<std::string> tables_of(const std::vector<size_t>& passes) {
  std::vector<std::string> tables;
  for (const AnalysisTable& table : analysis_tables()) {
    for (size_t i : passes)
      if (std::string_view(table.pass) == kPasses[i].name) tables.emplace_back(table.name);
  }
  return tables;
}

}  // namespace

void register_analysis_functions(sqlite3* db) {
  // The passes write the texts a log supplies (names, reasons, guards) through tlscope_clip: the
  // analysis tables hold at most what the read layer shows, so a 100 MB failure reason is not
  // copied into every table and finding that quotes it.
  register_clip_function(db);
  sqlite3_create_function(db, "tlscope_input_name", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                          input_name_function, nullptr, nullptr);
}

AnalysisReport analyze(sqlite3* db, const AnalysisOptions& options) {
  AnalysisReport report;
  auto start = std::chrono::steady_clock::now();
  try {
    for (const char* table : kRequiredTables) {
      if (!has_table(db, table)) {
        report.error = std::string("database has no '") + table +
                       "' table: it was not written by `tlscope ingest`";
        return report;
      }
    }
  } catch (const SqlError& e) {
    report.error = failure_text(db, e.what());
    return report;
  }
  register_analysis_functions(db);
  std::vector<double> seconds(kPassCount, 0);
  // This connection's wait for the passes beside it and its copy of their rows.
  std::vector<std::pair<std::string, double>> steps;
  std::vector<size_t> beside;  // passes running on the second connection
  std::unique_ptr<ConcurrentPasses> concurrent;
  std::string step = "setup";  // what runs: a pass, or a step around them
  size_t at = 0;               // index in kPasses of the pass that runs, or of the next one
  std::string error;
  struct BesideFailed {};
  try {
    const bool large = database_bytes(db) >= options.concurrent_from_bytes;
    // The write lock before the second connection opens: its snapshot is then the one this sees.
    exec(db, large ? "BEGIN IMMEDIATE" : "BEGIN");
    if (large) concurrent = start_beside(db, beside);
    report.concurrent = concurrent != nullptr;
    recreate_analysis_tables(db);
    for (at = 0; at < kPassCount; ++at) {
      if (concurrent && kPasses[at].beside) continue;
      if (concurrent && at > beside.front()) {
        step = "copy";
        auto t0 = std::chrono::steady_clock::now();
        concurrent->wait();
        if (concurrent->failed_pass() >= 0) throw BesideFailed{};
        for (size_t k = 0; k < beside.size(); ++k) seconds[beside[k]] = concurrent->seconds()[k];
        auto t1 = std::chrono::steady_clock::now();
        concurrent->copy_into(db, tables_of(beside));
        concurrent.reset();
        steps.emplace_back("concurrent_wait", std::chrono::duration<double>(t1 - t0).count());
        steps.emplace_back(
            "concurrent_copy",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
      }
      step = kPasses[at].name;
      auto t0 = std::chrono::steady_clock::now();
      kPasses[at].run(db);
      seconds[at] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    for (size_t i = 0; i < kPassCount; ++i)
      report.pass_seconds.emplace_back(kPasses[i].name, seconds[i]);
    report.pass_seconds.insert(report.pass_seconds.end(), steps.begin(), steps.end());
    drop_metrics_rows(db);
    step = "indexes";
    exec(db,
         "CREATE INDEX compiles_rank ON compiles(rank, compile_id);"
         "CREATE INDEX graph_breaks_compile ON graph_breaks(compile_id);"
         "CREATE INDEX tensors_compile ON tensors(file_id, compile_id);"
         "CREATE INDEX collectives_rank ON collectives(rank, pg_name, seq);"
         "CREATE INDEX findings_kind ON findings(kind);"
         "CREATE INDEX provenance_node_pre ON provenance_node_links(graph_id, pre_node);"
         "CREATE INDEX provenance_node_post ON provenance_node_links(graph_id, post_node);"
         "CREATE INDEX provenance_kernel_key ON provenance_kernel_links(graph_id, kernel_key);"
         "CREATE INDEX provenance_kernel_post ON provenance_kernel_links(graph_id, post_node);"
         // The report reads these per graph: unindexed, its provenance pages scanned them once
         // per graph (1,074 graphs of ~21,000 line rows in the 1 GB log: 2 s).
         "CREATE INDEX provenance_node_lines_graph ON provenance_node_lines(graph_id);"
         "CREATE INDEX provenance_code_lines_graph ON provenance_code_lines(graph_id);"
         "CREATE INDEX provenance_kernel_stacks_graph ON provenance_kernel_stacks(graph_id);"
         "CREATE INDEX provenance_errors_graph ON provenance_errors(graph_id);");
    for (const AnalysisTable& table : analysis_tables())
      report.table_rows.emplace_back(table.name, count_rows(db, table.name));
    step = "coverage";
    exec(db, kRecordCoverage);
    exec(db, "COMMIT");
    report.ok = true;
  } catch (const BesideFailed&) {
  } catch (const SqlError& e) {
    error = failure_text(db, "analysis pass '" + step + "' failed: " + e.what());
  } catch (const std::exception& e) {
    error = "analysis pass '" + step + "' failed: " + e.what();
  }
  if (concurrent) {
    // A serial run stops at the first pass that fails: a beside pass listed before the one that
    // failed here may have failed first (none is listed so today; the order rule is kept).
    if (!error.empty() && beside.front() < at) concurrent->wait();
    const int failed = concurrent->failed_pass();
    if (failed >= 0 && (error.empty() || beside[failed] < at)) error = concurrent->error();
    concurrent.reset();  // interrupts what still runs: its tables are not wanted
  }
  if (!error.empty()) {
    report.ok = false;
    report.error = error;
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace tlscope::model::analysis
