// DDL of every table the analyses write (documented in docs/schema.md, "Analysis tables"), and the
// SQL fragments the passes share.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>

namespace tlscope::model::analysis {

// Drops every analysis table and view, then creates them empty. Idempotent.
void recreate_analysis_tables(sqlite3* db);

// A name in a pass's own SQL: a column ("e.compile_id") or a JSON key. The fragments built from
// one are expressions over it, and SQLite binds values, never names, so the name is written into
// the SQL text; the consteval constructor admits only a name fixed when tlscope is compiled, so
// no value from a log or a database file can reach the SQL this way.
struct SqlName {
  consteval SqlName(const char* column) : name(column) {}  // NOLINT: a literal converts
  const char* name;
};

// The compile key of an events.compile_id-like column: the PyTorch id without the `_attempt`
// suffix ("0/1_2" -> "0/1"), because one compile spans all its restart attempts. A fixed
// expression: the same text for the same column.
std::string compile_key_sql(SqlName column);

// The attempt encoded in a PyTorch-form id ("0/1_2" -> 2, "0/1" -> 0).
std::string attempt_sql(SqlName column);

}  // namespace tlscope::model::analysis
