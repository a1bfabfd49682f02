// A read-only connection to a tlscope database (docs/schema.md) for the views and front ends.
// Writing belongs to the model's Store; nothing here ever modifies the file.
#pragma once

#include <sqlite3.h>

#include <functional>
#include <optional>
#include <string>

namespace tlscope::views {

class TraceDb {
 public:
  // Opens `path` read-only; fails (with "path: reason") if it is missing or not a database.
  static std::optional<TraceDb> open(const std::string& path, std::string* error);

  TraceDb(TraceDb&& other) noexcept;
  TraceDb& operator=(TraceDb&& other) noexcept;
  TraceDb(const TraceDb&) = delete;
  TraceDb& operator=(const TraceDb&) = delete;
  ~TraceDb();

  const std::string& path() const { return path_; }
  bool has_table(const std::string& name) const;
  // Runs one statement and calls `row` for each result row. On failure returns false and sets
  // `error` to "path: message (in: sql)".
  bool for_each_row(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row,
                    std::string* error) const;

 private:
  TraceDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_ = nullptr;
  std::string path_;
};

// Column readers that map SQL NULL to a default.
std::string column_text(sqlite3_stmt* stmt, int col);
int64_t column_int(sqlite3_stmt* stmt, int col, int64_t if_null = -1);
double column_double(sqlite3_stmt* stmt, int col, double if_null);

}  // namespace tlscope::views
