// Read-only access to a tlscope database for the exporters: a connection, prepared statements
// with typed column reads, and schema probes so pages degrade gracefully on older databases.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tlscope::exporters {

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  Statement(Statement&& other) noexcept : stmt_(other.stmt_), error_(std::move(other.error_)) {
    other.stmt_ = nullptr;
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  bool ok() const { return stmt_ != nullptr; }
  const std::string& error() const { return error_; }

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, std::string_view value);
  Statement& bind_null(int index);
  // Advances to the next row; false at the end (or on error, recorded in error()).
  bool step();
  void reset();

  bool is_null(int col) const;
  int64_t int64(int col) const;
  double real(int col) const;
  std::string text(int col) const;  // "" for NULL
  std::string_view text_view(int col) const;
  std::optional<int64_t> opt_int64(int col) const;
  int column_count() const { return stmt_ ? sqlite3_column_count(stmt_) : 0; }
  std::string_view column_name(int col) const {
    const char* n = stmt_ ? sqlite3_column_name(stmt_, col) : nullptr;
    return n ? n : "";
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  std::string error_;
};

class Database {
 public:
  // Opens `path` read-only; error() names the path and SQLite's reason on failure.
  explicit Database(const std::string& path, bool writable = false);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  bool ok() const { return db_ != nullptr; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return path_; }

  Statement prepare(std::string_view sql) const { return Statement(db_, sql); }
  sqlite3* handle() const { return db_; }
  bool has_table(std::string_view name) const;
  bool has_column(std::string_view table, std::string_view column) const;
  // Why this is not an ingested tlscope database (error(), or no events table); "" when it is.
  std::string not_tlscope_reason() const;
  // First column of the first row as an integer (0 when the query fails or has no row).
  int64_t scalar(std::string_view sql) const;

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  std::string error_;
};

}  // namespace tlscope::exporters
