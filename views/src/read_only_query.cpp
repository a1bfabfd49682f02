// The SQL console's query: read-only open plus an authorizer, so no statement can change the
// database or reach another file.
#include "tlscope/views/read_only_query.hpp"

#include <sqlite3.h>

#include <cctype>
#include <memory>

#include "tlscope/views/database.hpp"

namespace tlscope::views {
namespace {

// The first action the authorizer refused, so the message says what was refused.
struct Refused {
  std::string what;
};

// Pragmas that only report or check, whose argument names what to report on (a table, an index).
constexpr std::string_view kReportingPragmas[] = {
    "table_info",    "table_xinfo",     "table_list",       "index_list",
    "index_info",    "index_xinfo",     "foreign_key_list", "foreign_key_check",
    "database_list", "collation_list",  "function_list",    "module_list",
    "pragma_list",   "compile_options", "integrity_check",  "quick_check"};

bool reporting_pragma(const char* name) {
  if (!name) return false;
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view p : kReportingPragmas)
    if (p == lower) return true;
  return false;
}

int admit_reads_only(void* user, int action, const char* arg1, const char* arg2, const char*,
                     const char*) {
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:  // BEGIN/COMMIT around reads: a read snapshot, nothing written
    case SQLITE_SAVEPOINT:
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      // Without a value a pragma reports; with one it sets, unless it is a reporting pragma
      // whose argument is a table or index name.
      if (arg2 == nullptr || reporting_pragma(arg1)) return SQLITE_OK;
      break;
    default:
      break;
  }
  auto* refused = static_cast<Refused*>(user);
  if (refused->what.empty()) {
    if (action == SQLITE_ATTACH || action == SQLITE_DETACH) {
      refused->what = action == SQLITE_ATTACH ? "ATTACH" : "DETACH";
    } else if (action == SQLITE_PRAGMA) {
      refused->what = std::string("setting PRAGMA ") + (arg1 ? arg1 : "?");
    } else {
      refused->what = "a statement that writes";
    }
  }
  return SQLITE_DENY;
}

QueryCell read_cell(sqlite3_stmt* stmt, int col) {
  QueryCell cell;
  int type = sqlite3_column_type(stmt, col);
  cell.is_null = type == SQLITE_NULL;
  cell.is_number = type == SQLITE_INTEGER || type == SQLITE_FLOAT;
  if (cell.is_number) cell.number = sqlite3_column_double(stmt, col);
  const unsigned char* text = sqlite3_column_text(stmt, col);
  if (text) {
    cell.text.assign(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt, col)));
  }
  return cell;
}

}  // namespace

QueryResult run_read_only_query(const std::string& db_path, std::string_view sql, size_t max_rows) {
  QueryResult result;
  Database db(db_path);
  if (!db.ok()) {
    result.error = db.error();
    return result;
  }
  Refused refused;
  db.add_own_views(sql);  // before the authorizer, which refuses their CREATE TEMP VIEW
  sqlite3_set_authorizer(db.handle(), admit_reads_only, &refused);
  const std::string text(sql);
  const char* next = text.c_str();
  const char* end = text.c_str() + text.size();
  while (next < end) {
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    refused.what.clear();
    int rc = sqlite3_prepare_v2(db.handle(), next, static_cast<int>(end - next), &raw, &tail);
    if (rc != SQLITE_OK) {
      result.error = db_path + ": " +
                     (refused.what.empty() ? std::string(sqlite3_errmsg(db.handle()))
                                           : "read-only: " + refused.what + " is refused");
      return result;
    }
    next = tail;
    if (!raw) continue;  // whitespace or a comment
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt(raw, sqlite3_finalize);
    // VACUUM asks the authorizer nothing, but SQLite knows it is not a read.
    if (!sqlite3_stmt_readonly(raw)) {
      result.error = db_path + ": read-only: a statement that writes is refused";
      return result;
    }
    const int cols = sqlite3_column_count(raw);
    if (cols > 0) {
      result.columns.clear();
      result.rows.clear();
      result.truncated = false;
      for (int c = 0; c < cols; ++c) result.columns.emplace_back(sqlite3_column_name(raw, c));
    }
    while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
      if (result.rows.size() >= max_rows) {
        result.truncated = true;
        break;
      }
      auto& row = result.rows.emplace_back();
      for (int c = 0; c < cols; ++c) row.push_back(read_cell(raw, c));
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      result.error = db_path + ": " + sqlite3_errmsg(db.handle());
      return result;
    }
  }
  result.ok = true;
  return result;
}

}  // namespace tlscope::views
