// temp.metrics_rows: compilation_metrics without its `json` column, for the passes that read the
// typed columns. A metrics record keeps its whole JSON (~16 KB each in the 1 GB benchmark log), so
// each row of compilation_metrics fills about one 16 KB page: 109 MB for 6,802 records, more than
// the analysis connection's page cache. Every join on it (the final metrics of each compile, the
// failures, the metric phases) read those pages back from the OS again, ~0.1 CPU-s each; the copy
// is one scan and ~2 MB. A small table stays in the page cache after its first read, and there
// the copy (~0.9 M instructions, 3% of simple.log's analysis) would cost more than it saves.
// Since schema version 3 the ingest stores those columns alone (compilation_metrics_rows; the
// compilation_metrics view adds the JSON from events), and the passes read that table: the copy
// is only made for a database of version 2 given to the analysis.
#include <string>

#include "passes.hpp"
#include "sql.hpp"

namespace tlscope::model::analysis {

namespace {
// Copied from this many records (~32 MB of 16 KB rows, half the page cache) up.
constexpr int kCopyFromRows = 2000;

bool has_metrics_rows_table(sqlite3* db) {
  Statement s(db,
              "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
              "'compilation_metrics_rows'");
  return s.step();
}
}  // namespace

void build_metrics_rows(sqlite3* db) {
  if (has_metrics_rows_table(db)) return;
  {
    Statement big(db, "SELECT 1 FROM compilation_metrics LIMIT 1 OFFSET " +
                          std::to_string(kCopyFromRows - 1));
    if (!big.step()) return;
  }
  // The columns and declared types of the ingest table (so comparisons keep their affinities),
  // event_id the rowid again.
  std::string columns, names;
  Statement info(db,
                 "SELECT name, type, pk FROM pragma_table_info('compilation_metrics') "
                 "WHERE name <> 'json' ORDER BY cid");
  while (info.step()) {
    if (!columns.empty()) {
      columns += ", ";
      names += ", ";
    }
    columns += '"' + info.text(0) + "\" " + info.text(1) + (info.int64(2) ? " PRIMARY KEY" : "");
    names += '"' + info.text(0) + '"';
  }
  exec(db, "CREATE TEMP TABLE metrics_rows(" + columns + ");INSERT INTO temp.metrics_rows SELECT " +
               names + " FROM compilation_metrics ORDER BY event_id");
}

std::string metrics_table(sqlite3* db) {
  if (has_metrics_rows_table(db)) return "compilation_metrics_rows";
  Statement copied(db, "SELECT 1 FROM sqlite_temp_master WHERE name = 'metrics_rows'");
  return copied.step() ? "temp.metrics_rows" : "compilation_metrics";
}

void drop_metrics_rows(sqlite3* db) {
  exec(db, "DROP TABLE IF EXISTS temp.metrics_rows");
}

}  // namespace tlscope::model::analysis
