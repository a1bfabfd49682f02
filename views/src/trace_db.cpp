// Read-only SQLite access for views.
#include "tlscope/views/trace_db.hpp"

#include <filesystem>

namespace tlscope::views {

std::optional<TraceDb> TraceDb::open(const std::string& path, std::string* error) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    if (error) *error = path + ": no such database file";
    return std::nullopt;
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  if (rc != SQLITE_OK) {
    if (error) *error = path + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    return std::nullopt;
  }
  TraceDb out(db, path);
  // sqlite3_open_v2 is lazy: reading the schema is what tells a database from any other file.
  std::string why;
  if (!out.for_each_row(
          "SELECT count(*) FROM sqlite_master", [](sqlite3_stmt*) {}, &why)) {
    if (error) *error = why;
    return std::nullopt;
  }
  return out;
}

TraceDb::TraceDb(TraceDb&& other) noexcept : db_(other.db_), path_(std::move(other.path_)) {
  other.db_ = nullptr;
}

TraceDb& TraceDb::operator=(TraceDb&& other) noexcept {
  if (this != &other) {
    sqlite3_close(db_);
    db_ = other.db_;
    path_ = std::move(other.path_);
    other.db_ = nullptr;
  }
  return *this;
}

TraceDb::~TraceDb() {
  sqlite3_close(db_);
}

bool TraceDb::has_table(const std::string& name) const {
  bool found = false;
  std::string ignored;
  for_each_row(
      "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = '" + name + "'",
      [&](sqlite3_stmt*) { found = true; }, &ignored);
  return found;
}

bool TraceDb::for_each_row(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row,
                           std::string* error) const {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr);
  while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    row(stmt);
    rc = SQLITE_OK;
  }
  bool ok = rc == SQLITE_DONE;
  if (!ok && error) *error = path_ + ": " + sqlite3_errmsg(db_) + " (in: " + sql + ")";
  sqlite3_finalize(stmt);
  return ok;
}

std::string column_text(sqlite3_stmt* stmt, int col) {
  const unsigned char* t = sqlite3_column_text(stmt, col);
  return t ? reinterpret_cast<const char*>(t) : "";
}

int64_t column_int(sqlite3_stmt* stmt, int col, int64_t if_null) {
  return sqlite3_column_type(stmt, col) == SQLITE_NULL ? if_null : sqlite3_column_int64(stmt, col);
}

double column_double(sqlite3_stmt* stmt, int col, double if_null) {
  return sqlite3_column_type(stmt, col) == SQLITE_NULL ? if_null : sqlite3_column_double(stmt, col);
}

}  // namespace tlscope::views
