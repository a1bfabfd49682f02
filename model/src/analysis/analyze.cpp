// The analysis driver: recreates the analysis tables and runs every pass inside one transaction,
// timing each pass so `tlscope analyze` can show where the time goes.
#include "tlscope/model/analysis/analyze.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include "analysis_schema.hpp"
#include "concurrent_passes.hpp"
#include "passes.hpp"
#include "tlscope/model/analysis/recompiles.hpp"
#include "tlscope/model/cell_text.hpp"
#include "tlscope/model/sqlite.hpp"

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

// The passes: what each runs, the tables it reads and the tables it writes, the one list the
// runner orders them from (pass_order: a pass runs after every pass that writes a table it
// reads) and that tests check against what each pass's SQL touches (AnalysisOptions::
// record_tables). Names are separated by spaces. The metrics_rows pass writes
// compilation_metrics_rows only in a version-2 file, where it makes temp.compilation_metrics_rows
// (a view or copy of compilation_metrics' typed columns, metrics_rows.cpp); a version-3 file has
// the ingest's table of that name. Ingest views are named with the tables they read
// (compilation_metrics with compilation_metrics_rows, chromium_events with chromium_event_rows,
// stack_frames with stacks and event_stacks): those are what SQLite reports a pass reading.
//
// The passes marked beside read only ingest tables, so on a large database they run on a second
// connection (concurrent_passes.hpp) while this one runs the rest; their rows are copied in
// before the first pass ordered after them that runs here. Each table is written by one pass
// only, so its rows and rowids are those of a serial run. A pass that fails is reported as a
// serial run would report it: the first in the order.
struct Pass {
  const char* name;
  void (*run)(sqlite3*);
  const char* reads;
  const char* writes;
  bool beside;  // reads only ingest tables: may run on the second connection
};
constexpr Pass kPasses[] = {
    {"metrics_rows", build_metrics_rows, "compilation_metrics compilation_metrics_rows events",
     "compilation_metrics_rows", false},
    {"compiles", build_compiles,
     "files events compilation_metrics compilation_metrics_rows describe_tensor "
     "stack_frames",
     "compiles", false},
    {"compile_tree", build_compile_tree, "files events stack_frames stacks event_stacks compiles",
     "compile_tree compiles", false},
    {"failures_restarts", build_failures_restarts,
     "files events payloads artifacts compilation_metrics compilation_metrics_rows "
     "compiles",
     "failures restarts", false},
    {"graph_breaks", build_graph_breaks, "files events payloads artifacts compiles restarts",
     "graph_breaks graph_break_summary", false},
    {"recompiles", build_recompiles,
     "files events payloads artifacts compilation_metrics compilation_metrics_rows "
     "compiles",
     "recompiles cache_limit_hits", false},
    {"tensors", build_tensors,
     "files events describe_tensor describe_storage describe_source compiles",
     "tensors tensor_shape_changes dynamic_dims", false},
    {"compile_costs", build_compile_costs,
     "files events payloads artifacts chromium_events chromium_event_rows compilation_metrics "
     "compilation_metrics_rows compiles",
     "cache_events compile_phases", false},
    {"rank_divergence", build_rank_divergence,
     "files events payloads artifacts compiles cache_events", "rank_divergence", false},
    {"collectives", build_collectives, "files events payloads artifacts compile_phases",
     "collectives collective_matches collective_groups collective_rank_lateness", false},
    {"collective_parity", build_collective_parity, "files events payloads artifacts",
     "collective_parity", true},
    {"graph_runtimes", build_graph_runtimes, "files events payloads artifacts",
     "graph_runtimes graph_runtime_spread", true},
    {"provenance", build_provenance, "files events payloads artifacts",
     "provenance_graphs provenance_node_links provenance_kernel_links provenance_code_lines "
     "provenance_node_lines provenance_kernel_stacks provenance_errors",
     true},
    {"symbolic_shapes", build_symbolic_shapes, "files events payloads stack_frames",
     "shape_symbols shape_specializations shape_guards shape_expressions export_issues", true},
    {"phase_tree", build_phase_tree, "files events payloads chromium_events chromium_event_rows",
     "compile_phase_tree", false},
    {"vllm", build_vllm, "files events payloads artifacts",
     "vllm_config vllm_piecewise vllm_artifacts vllm_post_grad_passes", true},
    {"run_environment", build_run_environment,
     "files events payloads artifacts compilation_metrics compilation_metrics_rows",
     "run_info run_config", false},
    {"pgo_profiles", build_pgo_profiles, "files events payloads artifacts",
     "pgo_profiles pgo_profile_entries", true},
    {"dynamo_cache", build_dynamo_cache, "files events payloads artifacts", "dynamo_cache_records",
     true},
    {"overlap_scheduling", build_overlap_scheduling, "files events payloads artifacts",
     "overlap_schedules node_runtime_estimates", true},
    {"fx_bucketing", build_fx_bucketing, "files events payloads artifacts", "fx_buckets", true},
    {"spmd_mismatch", build_spmd_mismatch, "files events payloads artifacts",
     "spmd_graph_mismatches", true},
    {"findings", build_findings,
     "files events payloads artifacts compiles failures restarts graph_breaks recompiles "
     "cache_limit_hits tensors rank_divergence collectives collective_matches collective_groups "
     "collective_parity shape_specializations shape_symbols spmd_graph_mismatches",
     "findings", false},
};
constexpr size_t kPassCount = sizeof kPasses / sizeof kPasses[0];

std::vector<std::string> words(const char* list) {
  std::vector<std::string> out;
  std::string_view rest(list);
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    if (space != 0) out.emplace_back(rest.substr(0, space));
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return out;
}

// The order the passes run in, computed once from kPasses.
const std::vector<size_t>& run_order() {
  static const std::vector<size_t> order = pass_order(declared_passes());
  return order;
}

// What each pass's SQL touches, as SQLite's authorizer sees it while the statements compile:
// AnalysisOptions::record_tables, for the test that holds kPasses to the truth.
struct TableRecorder {
  std::vector<PassTables>* into = nullptr;
  PassTables* pass = nullptr;

  static void add(std::vector<std::string>& names, const char* name) {
    if (name == nullptr || std::string_view(name).rfind("sqlite_", 0) == 0) return;
    for (const std::string& n : names)
      if (n == name) return;
    names.emplace_back(name);
  }
  // Admits every action, noting the table of each read and write.
  bool on_access(const AuthorizerHook::Action& action) {
    if (pass == nullptr) return true;
    switch (action.code) {
      case SQLITE_READ:
        add(pass->reads, action.arg1);
        break;
      case SQLITE_INSERT:
      case SQLITE_UPDATE:
      case SQLITE_DELETE:
      case SQLITE_CREATE_TABLE:
      case SQLITE_CREATE_TEMP_TABLE:
      case SQLITE_DROP_TABLE:
      case SQLITE_DROP_TEMP_TABLE:
      case SQLITE_CREATE_TEMP_VIEW:
      case SQLITE_DROP_TEMP_VIEW:
        add(pass->writes, action.arg1);
        break;
      default:
        break;
    }
    return true;
  }
};

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
  const std::vector<size_t>& order = run_order();
  for (size_t at = 0; at < order.size(); ++at) {
    const Pass& pass = kPasses[order[at]];
    if (!pass.beside) continue;
    beside.push_back(at);
    passes.push_back({pass.name, pass.run});
  }
  auto concurrent = ConcurrentPasses::start(db, std::move(passes));
  if (!concurrent) beside.clear();
  return concurrent;
}

// The tables the beside passes (their places in run_order()) write, in analysis_tables() order.
std::vector<std::string> tables_of(const std::vector<size_t>& at) {
  std::vector<std::string> tables;
  for (const AnalysisTable& table : analysis_tables()) {
    for (size_t i : at)
      if (std::string_view(table.pass) == kPasses[run_order()[i]].name)
        tables.emplace_back(table.name);
  }
  return tables;
}

}  // namespace

std::vector<PassTables> declared_passes() {
  std::vector<PassTables> out;
  for (const Pass& pass : kPasses)
    out.push_back({pass.name, words(pass.reads), words(pass.writes)});
  return out;
}

std::vector<size_t> pass_order(const std::vector<PassTables>& passes) {
  auto has = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  // Who writes each table, in declared order. A later writer must read the table (it updates
  // what the first made, as compile_tree sets compiles.tree_node_id): two passes that each
  // write a table blind would make the order decide its rows.
  std::map<std::string, std::vector<size_t>> writers;
  for (size_t i = 0; i < passes.size(); ++i) {
    for (const std::string& table : passes[i].writes) {
      std::vector<size_t>& w = writers[table];
      if (!w.empty() && !has(passes[i].reads, table))
        throw std::invalid_argument("analysis passes '" + passes[w.front()].name + "' and '" +
                                    passes[i].name + "' both write " + table);
      w.push_back(i);
    }
  }
  // A pass follows every writer of each table it reads; one that also writes that table follows
  // only the writers declared before it.
  std::vector<std::vector<size_t>> before(passes.size());  // passes that must run first
  for (size_t i = 0; i < passes.size(); ++i) {
    for (const std::string& table : passes[i].reads) {
      auto w = writers.find(table);
      if (w == writers.end()) continue;
      const bool rewrites = has(passes[i].writes, table);
      for (size_t b : w->second)
        if (b != i && (!rewrites || b < i)) before[i].push_back(b);
    }
  }
  // Kahn's algorithm, taking the first ready pass in declared order each time: a list already
  // in a good order runs as written.
  std::vector<size_t> order;
  std::vector<bool> done(passes.size(), false);
  while (order.size() < passes.size()) {
    size_t next = passes.size();
    for (size_t i = 0; i < passes.size() && next == passes.size(); ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (size_t b : before[i]) ready = ready && done[b];
      if (ready) next = i;
    }
    if (next == passes.size()) {
      std::string stuck;
      for (size_t i = 0; i < passes.size(); ++i)
        if (!done[i]) stuck += (stuck.empty() ? "" : ", ") + passes[i].name;
      throw std::invalid_argument("analysis passes read each other's tables in a cycle: " + stuck);
    }
    done[next] = true;
    order.push_back(next);
  }
  return order;
}

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
  } catch (const SqliteError& e) {
    report.error = failure_text(db, e.what());
    return report;
  }
  register_analysis_functions(db);
  std::vector<double> seconds(kPassCount, 0);
  // This connection's wait for the passes beside it and its copy of their rows.
  std::vector<std::pair<std::string, double>> steps;
  std::vector<size_t> beside;  // places in `order` of the passes on the second connection
  std::unique_ptr<ConcurrentPasses> concurrent;
  std::string step = "setup";                      // what runs: a pass, or a step around them
  const std::vector<size_t>& order = run_order();  // kPasses indexes, in the order they run
  size_t at = 0;  // place in `order` of the pass that runs, or of the next one
  TableRecorder recorder;
  std::optional<AuthorizerHook> recording;
  if (options.record_tables) {
    recorder.into = &report.tables_used;
    recording.emplace(db, [&](const AuthorizerHook::Action& a) { return recorder.on_access(a); });
  }
  std::string error;
  struct BesideFailed {};
  try {
    const bool large = database_bytes(db) >= options.concurrent_from_bytes;
    // The write lock before the second connection opens: its snapshot is then the one this sees.
    exec(db, large ? "BEGIN IMMEDIATE" : "BEGIN");
    if (large) concurrent = start_beside(db, beside);
    report.concurrent = concurrent != nullptr;
    recreate_analysis_tables(db);
    for (at = 0; at < order.size(); ++at) {
      const Pass& pass = kPasses[order[at]];
      if (concurrent && pass.beside) continue;
      if (concurrent && at > beside.front()) {
        step = "copy";
        auto t0 = std::chrono::steady_clock::now();
        concurrent->wait();
        if (concurrent->failed_pass() >= 0) throw BesideFailed{};
        for (size_t k = 0; k < beside.size(); ++k)
          seconds[order[beside[k]]] = concurrent->seconds()[k];
        auto t1 = std::chrono::steady_clock::now();
        concurrent->copy_into(db, tables_of(beside));
        concurrent.reset();
        steps.emplace_back("concurrent_wait", std::chrono::duration<double>(t1 - t0).count());
        steps.emplace_back(
            "concurrent_copy",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
      }
      step = pass.name;
      if (options.record_tables) {
        recorder.pass = &report.tables_used.emplace_back();
        recorder.pass->name = pass.name;
      }
      auto t0 = std::chrono::steady_clock::now();
      pass.run(db);
      seconds[order[at]] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      recorder.pass = nullptr;
    }
    recording.reset();
    for (size_t i : order) report.pass_seconds.emplace_back(kPasses[i].name, seconds[i]);
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
  } catch (const SqliteError& e) {
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
  recording.reset();
  if (!error.empty()) {
    report.ok = false;
    report.error = error;
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace tlscope::model::analysis
