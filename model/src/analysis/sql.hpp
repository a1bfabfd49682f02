// A thin RAII layer over the SQLite C API for the analyses: prepared statements with typed binds
// and reads, and errors that carry the failing SQL so a broken query names itself.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tlscope::model::analysis {

// Thrown by the analysis passes; analyze() catches it, rolls back and reports the message.
class SqlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs one or more statements that return no rows we need.
void exec(sqlite3* db, std::string_view sql);

// True when the database has a table (or view) of that name.
bool has_table(sqlite3* db, std::string_view name);

// Rows in a table (or the count a query returns in its first column).
int64_t count_rows(sqlite3* db, std::string_view table);

// Whether `SELECT 1 FROM <from>` has a row: a table, or a table and its WHERE clause. Passes use
// it to skip statements whose every source row would come from what is empty here: compiling
// a statement costs more than reading an empty table, and a small log leaves most tables empty.
bool has_rows(sqlite3* db, std::string_view from);

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binds are 1-based, as in SQLite. Binding std::nullopt binds NULL.
  Statement& bind(int index, int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, std::optional<int64_t> value);
  Statement& bind(int index, std::optional<double> value);
  Statement& bind(int index, std::optional<std::string> value);
  Statement& bind_null(int index);
  // A text the log supplies (a name, reason or guard), bound clipped to kCellTextLimit bytes
  // with the note of its full size (tlscope/model/cell_text.hpp), as the analysis tables hold
  // such texts. std::nullopt binds NULL.
  Statement& bind_clipped(int index, std::string_view value);
  Statement& bind_clipped(int index, const std::string& value) {
    return bind_clipped(index, std::string_view(value));
  }
  Statement& bind_clipped(int index, const std::optional<std::string>& value);

  // Advances to the next row: true while a row is available.
  bool step();
  // Runs a statement that returns no rows (INSERT/UPDATE), then resets it for reuse.
  void run();
  void reset();

  bool is_null(int column) const;
  int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;            // "" for NULL
  std::string_view text_view(int column) const;  // valid until the next step()
  std::optional<int64_t> opt_int64(int column) const;
  std::optional<double> opt_real(int column) const;
  std::optional<std::string> opt_text(int column) const;

 private:
  [[noreturn]] void fail(const char* what) const;
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace tlscope::model::analysis
