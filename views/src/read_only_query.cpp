// The SQL console's query: read-only open plus an authorizer (the one SQLite wrapper's
// AuthorizerHook), so no statement can change the database or reach another file.
#include "tlscope/views/read_only_query.hpp"

#include <sqlite3.h>

#include <cctype>
#include <optional>

#include "tlscope/model/sqlite.hpp"
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

bool admit_reads_only(const model::AuthorizerHook::Action& action, Refused& refused) {
  switch (action.code) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:  // BEGIN/COMMIT around reads: a read snapshot, nothing written
    case SQLITE_SAVEPOINT:
      return true;
    case SQLITE_PRAGMA:
      // Without a value a pragma reports; with one it sets, unless it is a reporting pragma
      // whose argument is a table or index name.
      if (action.arg2 == nullptr || reporting_pragma(action.arg1)) return true;
      break;
    default:
      break;
  }
  if (refused.what.empty()) {
    if (action.code == SQLITE_ATTACH || action.code == SQLITE_DETACH) {
      refused.what = action.code == SQLITE_ATTACH ? "ATTACH" : "DETACH";
    } else if (action.code == SQLITE_PRAGMA) {
      refused.what = std::string("setting PRAGMA ") + (action.arg1 ? action.arg1 : "?");
    } else {
      refused.what = "a statement that writes";
    }
  }
  return false;
}

QueryCell read_cell(const model::Statement& stmt, int col) {
  QueryCell cell;
  cell.is_null = stmt.is_null(col);
  cell.is_number = stmt.is_number(col);
  if (cell.is_number) cell.number = stmt.real(col);
  cell.text = stmt.text(col);
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
  model::AuthorizerHook reads_only(db.handle(), [&](const model::AuthorizerHook::Action& a) {
    return admit_reads_only(a, refused);
  });
  std::string_view rest = sql;
  try {
    while (!rest.empty()) {
      refused.what.clear();
      std::optional<model::Statement> stmt;
      try {
        stmt = model::Statement::first_of(db.handle(), rest);
      } catch (const model::SqliteError&) {
        if (refused.what.empty()) throw;
        result.error = db_path + ": read-only: " + refused.what + " is refused";
        return result;
      }
      if (!stmt) continue;  // whitespace or a comment
      // VACUUM asks the authorizer nothing, but SQLite knows it is not a read.
      if (!stmt->read_only()) {
        result.error = db_path + ": read-only: a statement that writes is refused";
        return result;
      }
      const int cols = stmt->column_count();
      if (cols > 0) {
        result.columns.clear();
        result.rows.clear();
        result.truncated = false;
        for (int c = 0; c < cols; ++c) result.columns.emplace_back(stmt->column_name(c));
      }
      while (stmt->step()) {
        if (result.rows.size() >= max_rows) {
          result.truncated = true;
          break;
        }
        auto& row = result.rows.emplace_back();
        for (int c = 0; c < cols; ++c) row.push_back(read_cell(*stmt, c));
      }
    }
  } catch (const model::SqliteError& e) {
    result.error = db_path + ": " + e.what();
    return result;
  }
  result.ok = true;
  return result;
}

}  // namespace tlscope::views
