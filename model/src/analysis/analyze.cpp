// The analysis driver: recreates the analysis tables and runs every pass inside one transaction,
// timing each pass so `tlscope analyze` can show where the time goes.
#include "tlscope/model/analysis/analyze.hpp"

#include <chrono>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "sql.hpp"
#include "tlscope/model/analysis/recompiles.hpp"

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

// Why a failed analysis failed, in the user's terms where SQLite's own words mislead: a database
// busy with an ingest is not broken, and a damaged one was most likely left by a killed write.
std::string failure_text(sqlite3* db, const std::string& what) {
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "the database is being written by another process (a tlscope ingest?); try again "
             "when it has finished";
    case SQLITE_NOTADB:
      return "not a tlscope database (" + std::string(sqlite3_errmsg(db)) + ")";
    case SQLITE_CORRUPT:
      return "the database file is damaged (" + std::string(sqlite3_errmsg(db)) +
             "), most likely by an ingest that was killed while an older tlscope wrote it "
             "without a journal: ingest the logs again into a new database";
    default:
      return what;
  }
}

// What the analysis covered: the files as they were (their event counts and completion). A front
// end compares it with `files` to tell an analysis that no longer describes the whole database
// (a later `ingest --no-analyze`, a replaced or still-incomplete file) from a current one.
constexpr const char* kRecordCoverage =
    "DROP TABLE IF EXISTS analysis_files;"
    "CREATE TABLE analysis_files AS SELECT id AS file_id, events, completed FROM files;";

constexpr const char* kRequiredTables[] = {
    "files",           "events",           "payloads",        "stack_frames", "compilation_metrics",
    "describe_tensor", "describe_storage", "describe_source", "artifacts",    "chromium_events"};

}  // namespace

void register_analysis_functions(sqlite3* db) {
  sqlite3_create_function(db, "tlscope_input_name", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr,
                          input_name_function, nullptr, nullptr);
}

AnalysisReport analyze(sqlite3* db) {
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
  struct Pass {
    const char* name;
    void (*run)(sqlite3*);
  };
  static constexpr Pass passes[] = {
      {"metrics_rows", build_metrics_rows},
      {"compiles", build_compiles},
      {"compile_tree", build_compile_tree},
      {"failures_restarts", build_failures_restarts},
      {"graph_breaks", build_graph_breaks},
      {"recompiles", build_recompiles},
      {"tensors", build_tensors},
      {"compile_costs", build_compile_costs},
      {"rank_divergence", build_rank_divergence},
      {"collectives", build_collectives},
      {"collective_parity", build_collective_parity},
      {"graph_runtimes", build_graph_runtimes},
      {"provenance", build_provenance},
      {"symbolic_shapes", build_symbolic_shapes},
      {"findings", build_findings},
  };
  const char* current = "setup";
  try {
    exec(db, "BEGIN");
    recreate_analysis_tables(db);
    for (const Pass& pass : passes) {
      current = pass.name;
      auto t0 = std::chrono::steady_clock::now();
      pass.run(db);
      report.pass_seconds.emplace_back(
          pass.name, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    drop_metrics_rows(db);
    current = "indexes";
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
    current = "coverage";
    exec(db, kRecordCoverage);
    exec(db, "COMMIT");
    report.ok = true;
  } catch (const SqlError& e) {
    std::string what = std::string("analysis pass '") + current + "' failed: " + e.what();
    report.error = failure_text(db, what);
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  } catch (const std::exception& e) {
    report.error = std::string("analysis pass '") + current + "' failed: " + e.what();
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace tlscope::model::analysis
