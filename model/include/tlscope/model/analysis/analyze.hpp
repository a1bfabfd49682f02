// `tlscope analyze`: (re)builds every analysis table of docs/schema.md ("Analysis tables") from the
// ingest tables, in one transaction. Running it twice gives the same tables.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tlscope::model::analysis {

// An analysis pass and the tables it reads and writes (analysis tables, ingest tables and
// metrics_rows, the passes' private copy of compilation_metrics).
struct PassTables {
  std::string name;
  std::vector<std::string> reads;
  std::vector<std::string> writes;
};

struct AnalysisReport {
  bool ok = false;
  std::string error;  // names the pass and the failing SQL when !ok
  double seconds = 0;
  std::vector<std::pair<std::string, int64_t>> table_rows;  // analysis table -> rows written
  // pass -> wall time, in the pass order; then, when passes ran beside the others, the analysis
  // connection's wait for them ("concurrent_wait") and its copy of their rows ("concurrent_copy")
  std::vector<std::pair<std::string, double>> pass_seconds;
  bool concurrent = false;  // the passes that read only ingest tables ran on a second connection
  // With AnalysisOptions::record_tables: the tables each pass that ran on this connection read
  // and wrote, as SQLite's authorizer saw its statements compile, in run order.
  std::vector<PassTables> tables_used;
};

struct AnalysisOptions {
  // From a database of this size up, the passes that read only ingest tables run on a second
  // connection and thread beside the others; below it the ~1 ms these cost is not won back.
  int64_t concurrent_from_bytes = int64_t{16} << 20;
  // Records AnalysisReport::tables_used (tests hold the declared lists to it).
  bool record_tables = false;
};

// The passes as declared (analyze.cpp's one list), each with the tables it reads and writes.
std::vector<PassTables> declared_passes();

// The order to run `passes` in (indexes into it): each after every pass that writes a table it
// reads; among the passes free to run, the first declared. Throws std::invalid_argument naming
// the passes when two write one table or when they read each other's tables in a cycle.
std::vector<size_t> pass_order(const std::vector<PassTables>& passes);

// One analysis table: its name, the pass that writes it (AnalysisReport::pass_seconds names the
// passes) and its DDL.
struct AnalysisTable {
  const char* name;
  const char* pass;
  const char* ddl;
};

// Every table the analyses write, in the order docs/schema.md documents them.
std::span<const AnalysisTable> analysis_tables();

// The database must hold the ingest tables (files, events, payloads, artifacts, ...). On failure
// nothing is left half-written: the transaction is rolled back.
AnalysisReport analyze(sqlite3* db, const AnalysisOptions& options = {});

// analyze() on a connection of its own to the database file at `path`, as `tlscope analyze` runs
// it: through a write-ahead log, so a kill or a power cut at any point leaves the ingest's rows
// intact and either the earlier analysis or the new one, whole; the file is back in rollback
// journal mode afterwards. Syncs only where that needs them (see analyze_database.cpp). Throws
// (the message names the file) when the file cannot be opened or is no database.
AnalysisReport analyze_database(const std::string& path, const AnalysisOptions& options = {});

// Registers the SQL functions the analysis tables' queries use (tlscope_input_name). analyze()
// calls it; front ends that query with those functions may call it too.
void register_analysis_functions(sqlite3* db);

}  // namespace tlscope::model::analysis

namespace tlscope::model::analysis {

struct EnsuredAnalysis {
  bool ok = false;
  bool ran = false;   // the tables were missing and have been built now
  std::string error;  // names the database file
};

// Whether the database behind `db` (any connection, read-only too) holds the analysis tables: the
// check ensure_analysis makes, for a front end that has its database open already.
bool has_analysis_tables(sqlite3* db);

// Front ends read the analysis tables; a database ingested without them (--no-analyze) gets them
// built here, the way `tlscope analyze` builds them (they are derived data). Nothing is written
// when they exist. Never throws.
EnsuredAnalysis ensure_analysis(const std::string& path);

}  // namespace tlscope::model::analysis
