// Thin RAII wrappers over the SQLite C API: a connection and a prepared statement. Failures throw
// SqliteError carrying SQLite's message, so callers report them once at the command boundary.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tlscope::model {

class SqliteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Statement;
class ConnectionGuard;

// Why `path` must not be handed to SQLite: it names a FIFO, a device, a directory or a socket
// (opening a FIFO would block). Empty for a regular file, a missing path, ":memory:" or a URI.
std::string non_regular_database_reason(const std::string& path);

// Process-wide SQLite settings, applied once before SQLite's first use: memory statistics off
// (every SQLite allocation otherwise takes a global mutex to count itself, 13% of the
// instructions of a report of a small log; tlscope never reads those counters). Connections
// call it when they open; main() calls it first, while the process has one thread, because
// sqlite3_config must not run beside other SQLite calls. Later calls do nothing.
void configure_sqlite();

enum class OpenMode { kCreate, kReadWrite, kReadOnly };

class Connection {
 public:
  // Opens the database at `path`; only kCreate makes a missing file. The connection is guarded
  // against a hostile file (connection_guard.hpp); exec, prepare and scalar_int first make
  // tlscope's own views.
  explicit Connection(const std::string& path, OpenMode mode = OpenMode::kCreate);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // The raw handle, for SQL run on it directly (the analyses): tlscope's views are made first. A
  // failure here (a busy or damaged file) is left for that SQL, or the next exec, to report.
  sqlite3* handle() const;
  void exec(const std::string& sql);
  Statement prepare(std::string_view sql);
  // First column of the first row of `sql` as an integer; nullopt if no row or NULL.
  std::optional<int64_t> scalar_int(std::string_view sql);

  // tlscope's views as TEMP views of this connection (connection_guard.hpp); exec, prepare and
  // scalar_int call it first, so only code that runs SQL on handle() before them needs to.
  void add_own_views();

 private:
  sqlite3* db_ = nullptr;
  std::unique_ptr<ConnectionGuard> guard_;
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binders take 1-based parameter indexes. Text is bound SQLITE_STATIC: it must stay valid until
  // the statement is stepped, which every caller here does before touching its buffers again.
  void bind_null(int i);
  void bind_int(int i, int64_t v);
  void bind_double(int i, double v);
  void bind_text(int i, std::string_view v);
  void bind_opt_int(int i, const std::optional<int64_t>& v);
  void bind_opt_double(int i, const std::optional<double>& v);
  void bind_opt_text(int i, const std::optional<std::string_view>& v);

  // Steps once: true while a row is available, false when done. Throws on error.
  bool step();
  // Runs an INSERT/UPDATE to completion and resets for the next binding.
  void run();
  void reset();

  int64_t column_int(int i) const;
  double column_double(int i) const;
  std::string column_text(int i) const;
  bool column_is_null(int i) const;
  sqlite3_stmt* handle() const { return stmt_; }

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace tlscope::model
