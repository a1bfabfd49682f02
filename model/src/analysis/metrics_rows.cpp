// compilation_metrics_rows for every database the analysis is given: the passes that read the
// metrics records' typed columns name that one table in their SQL (never a name chosen at run
// time and spliced in). Since schema version 3 it is the ingest's own table (the
// compilation_metrics view adds the JSON from events), and this pass does nothing. A database of
// version 2 keeps each record's whole JSON in a compilation_metrics table (~16 KB each in the 1 GB
// benchmark log), so each row fills about one 16 KB page: 109 MB for 6,802 records, more than
// the analysis connection's page cache. Every join on it (the final metrics of each compile, the
// failures, the metric phases) read those pages back from the OS again, ~0.1 CPU-s each, so a
// large one is copied without the JSON into temp.compilation_metrics_rows (one scan, ~2 MB),
// which the passes' unqualified name finds (SQLite looks in temp first); a small one stays in the
// page cache after its first read, and there temp.compilation_metrics_rows is a view without the
// JSON (a copy, ~0.9 M instructions, 3% of simple.log's analysis, would cost more than it saves).
// TEMP views run even where the connection guard turns the file's views off.
#include <string>

#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"

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

// A column name of a version-2 file as an SQL identifier: the name is the file's (a hostile one
// may hold a quote), so it is quoted with its quotes doubled. Names cannot be bound as parameters.
std::string quoted_name(std::string_view name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + '"';
}

}  // namespace

void build_metrics_rows(sqlite3* db) {
  if (has_metrics_rows_table(db)) return;
  drop_metrics_rows(db);  // left by an analysis of this connection that failed half way
  bool big = false;
  {
    Statement rows(db, "SELECT 1 FROM compilation_metrics LIMIT 1 OFFSET ?1");
    big = rows.bind(1, kCopyFromRows - 1).step();
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
    // The declared type is only kept when it is one of SQLite's plain type names.
    const std::string type = info.text(1);
    const bool plain_type =
        type.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") ==
        std::string::npos;
    columns += quoted_name(info.text_view(0)) + (plain_type ? " " + type : std::string()) +
               (info.int64(2) ? " PRIMARY KEY" : "");
    names += quoted_name(info.text_view(0));
  }
  if (!big) {
    exec(db, "CREATE TEMP VIEW compilation_metrics_rows AS SELECT " + names +
                 " FROM compilation_metrics");
    return;
  }
  exec(db, "CREATE TEMP TABLE compilation_metrics_rows(" + columns +
               ");INSERT INTO temp.compilation_metrics_rows SELECT " + names +
               " FROM compilation_metrics ORDER BY event_id");
}

void drop_metrics_rows(sqlite3* db) {
  std::string type;
  {
    Statement made(db,
                   "SELECT type FROM sqlite_temp_master WHERE name = 'compilation_metrics_rows'");
    if (!made.step()) return;
    type = made.text(0);
  }
  exec(db, type == "view" ? "DROP VIEW temp.compilation_metrics_rows"
                          : "DROP TABLE temp.compilation_metrics_rows");
}

}  // namespace tlscope::model::analysis
