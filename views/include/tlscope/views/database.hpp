// The read facade of views/ and the front ends over a tlscope database (docs/schema.md): a
// read-only model::Connection and model::Statement (tlscope/model/sqlite.hpp, the one SQLite
// wrapper) with their exceptions turned into values. Errors are values, never exceptions: ok()
// and error(), where every message names the database file and what failed (docs/architecture.md,
// "One error convention"). Writing belongs to the model's Store.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tlscope/views/result.hpp"

namespace tlscope::model {
class Connection;
class Statement;
}  // namespace tlscope::model

namespace tlscope::views {

// A statement of the model's wrapper (tlscope/model/sqlite.hpp) read the views/ way: a failure is
// kept as a value (ok(), error(): "path: SQLite's reason in: sql"), never thrown, because a
// screen or a report page degrades to a message where an exception would lose the whole page.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  Statement(Statement&& other) noexcept;
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
  // A cell's text, "" for NULL, clipped to kCellTextLimit bytes (cell_text.hpp): a cell of a
  // hostile or damaged file can hold hundreds of MB, and a view model holds only what a person
  // can read, with a note that says the full size.
  std::string text(int col) const;
  // The whole cell, for the texts that legitimately go out in full (a payload file); the caller
  // bounds what it copies.
  std::string full_text(int col) const { return std::string(text_view(col)); }
  // The whole cell, not copied (valid until the next step): for parsers and scanners that keep
  // only what they extract.
  std::string_view text_view(int col) const;
  std::optional<int64_t> opt_int64(int col) const;
  int64_t int64_or(int col, int64_t if_null) const { return is_null(col) ? if_null : int64(col); }
  double real_or(int col, double if_null) const { return is_null(col) ? if_null : real(col); }
  // Steps through every row, calling `row(*this)` for each; false with the failure kept in
  // `into` (Result::fail: the first one stays) if the statement failed to prepare or to run.
  template <typename Row, typename T>
  bool for_each(Row&& row, Result<T>& into) {
    while (step()) row(*this);
    if (error_.empty()) return true;
    into.fail(error_);
    return false;
  }
  // The same where no Result is at hand: false when it failed (error() says why).
  template <typename Row>
  bool for_each(Row&& row) {
    while (step()) row(*this);
    return error_.empty();
  }
  int column_count() const;
  std::string_view column_name(int col) const;

 private:
  std::unique_ptr<model::Statement> stmt_;
  std::string error_;
  std::string path_;  // "path: " for messages
};

class Database {
 public:
  // Opens `path` read-only through model::Connection; error() names the path and the reason on
  // failure (missing, not a regular file, not a database). Only regular files are opened: a FIFO
  // or device would block. The connection is guarded against a hostile file
  // (model/connection_guard.hpp): SQL stored in it never runs, and a runaway statement is stopped.
  explicit Database(const std::string& path);
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  bool ok() const { return db_ != nullptr; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return path_; }

  // Makes the TEMP copies of tlscope's views that `sql` names first (model/connection_guard.hpp).
  Statement prepare(std::string_view sql) const {
    add_own_views(sql);
    return Statement(db_, sql);
  }
  // For SQL run on handle(): its failure shows in the statement itself, so it is not returned.
  void add_own_views(std::string_view sql) const;
  sqlite3* handle() const { return db_; }
  bool has_table(std::string_view name) const;
  // A column that an older analysis or a hand-made database may lack (events.subgraph_name).
  bool has_column(std::string_view table, std::string_view column) const;
  // Why this is not an ingested tlscope database (error(), or no events table); "" when it is.
  std::string not_tlscope_reason() const;
  // First column of the first row as an integer (0 when the query fails or has no row).
  int64_t scalar(std::string_view sql) const;

 private:
  std::unique_ptr<model::Connection> connection_;
  sqlite3* db_ = nullptr;  // connection_'s handle, null when the open failed
  std::string path_;
  std::string error_;
};

}  // namespace tlscope::views
