// DDL of every table the analyses write (documented in docs/schema.md, "Analysis tables"), and the
// SQL fragments the passes share.
#pragma once

#include <sqlite3.h>

#include <string>
#include <string_view>

namespace tlscope::model::analysis {

// Drops every analysis table and view, then creates them empty. Idempotent.
void recreate_analysis_tables(sqlite3* db);

// The compile key of an events.compile_id-like column: the PyTorch id without the `_attempt`
// suffix ("0/1_2" -> "0/1"), because one compile spans all its restart attempts.
std::string compile_key_sql(std::string_view column);

// The attempt encoded in a PyTorch-form id ("0/1_2" -> 2, "0/1" -> 0).
std::string attempt_sql(std::string_view column);

}  // namespace tlscope::model::analysis
