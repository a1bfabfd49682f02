// Query helpers shared by the test suites: a query's rows as text, for comparing with values read
// off the logs or truth.json.
#pragma once

#include <sqlite3.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace tlscope::test {

// Rows of a query, columns joined with '|', NULL written as NULL.
inline std::vector<std::string> sql_rows(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string(sqlite3_errmsg(db)) + " in " + sql);
  std::vector<std::string> out;
  while (sqlite3_step(s) == SQLITE_ROW) {
    std::string row;
    for (int i = 0; i < sqlite3_column_count(s); ++i) {
      if (i) row += "|";
      auto* t = sqlite3_column_text(s, i);
      row += t ? reinterpret_cast<const char*>(t) : "NULL";
    }
    out.push_back(row);
  }
  sqlite3_finalize(s);
  return out;
}

// Runs statements that return no rows; a failure names the SQL.
inline void sql_exec(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string message = err ? err : "?";
    sqlite3_free(err);
    throw std::runtime_error(message + " in " + sql.substr(0, 200));
  }
}

// Runs `sql` on the database file at `path` through a plain connection, as any SQLite user could
// (tests that alter a database the way someone else's tool might).
inline void sql_exec_file(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw std::runtime_error(path + ": " + message);
  }
  try {
    sql_exec(db, sql);
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  sqlite3_close(db);
}

}  // namespace tlscope::test
