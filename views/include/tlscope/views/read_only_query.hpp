// A person's SQL against a tlscope database, guaranteed never to write: the viewer's SQL console
// runs it. The database is opened with SQLITE_OPEN_READONLY and an authorizer that admits reads
// only (a read-only connection alone would still run ATTACH, VACUUM INTO or setting pragmas).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::views {

struct QueryCell {
  std::string text;  // "" for NULL
  bool is_null = false;
  bool is_number = false;  // INTEGER or REAL: sorts by value, not by text
  double number = 0;
};

struct QueryResult {
  bool ok = false;
  std::string error;                 // "path: message" when !ok
  std::vector<std::string> columns;  // of the last statement that returns columns
  std::vector<std::vector<QueryCell>> rows;
  bool truncated = false;  // more than max_rows rows; the first max_rows are kept
};

// Runs every statement of `sql` in order; the rows are those of the last statement with columns.
QueryResult run_read_only_query(const std::string& db_path, std::string_view sql,
                                size_t max_rows = 10000);

}  // namespace tlscope::views
