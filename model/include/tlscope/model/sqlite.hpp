// The one wrapper over the SQLite C API, for model/ (ingest, analysis) and views/ (through
// views::Database, its read facade): a connection, a prepared statement with typed binds and
// reads, and helpers on a raw handle. Failures throw SqliteError carrying SQLite's message (with
// what it means for a tlscope database) and the start of the statement, so callers report them
// once at the command boundary; views/ turns them into Result values at its API.
#pragma once

#include <sqlite3.h>

#include <concepts>
#include <cstdint>
#include <functional>
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
  // The handle without making tlscope's views, for a caller that makes those its SQL names
  // first with add_views_named_in (views::Database: a reader that never reads a view pays
  // nothing). A failure there is left for that SQL to report.
  sqlite3* raw_handle() const { return db_; }
  void add_views_named_in(std::string_view sql) const;

 private:
  sqlite3* db_ = nullptr;
  std::unique_ptr<ConnectionGuard> guard_;
};

class Statement {
 public:
  // Prepares `sql`; throws SqliteError naming SQLite's reason and the statement's start.
  Statement(sqlite3* db, std::string_view sql);
  // Prepares the first statement of a script of several (a person's SQL) and moves `script` past
  // it; nullopt when only whitespace or comments were left. Throws as the constructor does.
  static std::optional<Statement> first_of(sqlite3* db, std::string_view& script);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binders take 1-based parameter indexes, as SQLite does, and return the statement so binds
  // chain. std::nullopt binds NULL. Text is copied by SQLite (SQLITE_TRANSIENT) unless bound
  // with bind_static.
  Statement& bind(int index, int64_t value);
  template <std::integral T>
  Statement& bind(int index, T value) {
    return bind(index, static_cast<int64_t>(value));
  }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const std::optional<int64_t>& value);
  Statement& bind(int index, const std::optional<double>& value);
  Statement& bind(int index, const std::optional<std::string>& value);
  Statement& bind_null(int index);
  // Text bound without a copy (SQLITE_STATIC), for the ingest's hot inserts: it must stay valid
  // until the statement is stepped, which those callers do before touching their buffers again.
  Statement& bind_static(int index, std::string_view value);
  Statement& bind_static(int index, const std::optional<std::string_view>& value);
  Statement& bind_static(int index, const std::string& value) {
    return bind_static(index, std::string_view(value));
  }
  Statement& bind_static(int index, const char* value) {
    return bind_static(index, std::string_view(value));
  }
  // A text the log supplies (a name, reason or guard), bound clipped to kCellTextLimit bytes
  // with the note of its full size (tlscope/model/cell_text.hpp), as the analysis tables hold
  // such texts. std::nullopt binds NULL.
  Statement& bind_clipped(int index, std::string_view value);
  Statement& bind_clipped(int index, const std::string& value) {
    return bind_clipped(index, std::string_view(value));
  }
  Statement& bind_clipped(int index, const std::optional<std::string>& value);

  // Steps once: true while a row is available, false when done. Throws SqliteError.
  bool step();
  // Runs an INSERT/UPDATE to completion and resets for the next binding.
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
  bool is_number(int column) const;  // INTEGER or REAL
  int column_count() const;
  std::string_view column_name(int column) const;
  // Whether stepping it can change the database (SQLite's own judgement, which also knows the
  // statements an authorizer is never asked about, such as VACUUM).
  bool read_only() const;
  sqlite3_stmt* handle() const { return stmt_; }

 private:
  Statement() = default;
  [[noreturn]] void fail(const char* what) const;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// SQLite's authorizer (sqlite3_set_authorizer) for as long as this object lives: each statement
// prepared on the connection asks `admit` about every action it would take, and one refused
// fails to prepare. For `tlscope query` (reads only) and the analysis's record of the tables each
// pass touches. A connection has one authorizer: none is left when this goes.
class AuthorizerHook {
 public:
  // One action: SQLite's code (SQLITE_READ, SQLITE_INSERT, SQLITE_PRAGMA, ...) and its two
  // arguments, either of which may be null (for SQLITE_READ the table and column).
  struct Action {
    int code;
    const char* arg1;
    const char* arg2;
  };
  using Admit = std::function<bool(const Action&)>;
  AuthorizerHook(sqlite3* db, Admit admit);
  ~AuthorizerHook();
  AuthorizerHook(const AuthorizerHook&) = delete;
  AuthorizerHook& operator=(const AuthorizerHook&) = delete;

 private:
  static int on_action(void* hook, int code, const char* arg1, const char* arg2, const char*,
                       const char*);
  sqlite3* db_;
  Admit admit_;
};

// Free helpers on a raw handle (the analysis passes run on one, and on a second connection).
// Each throws SqliteError with SQLite's reason and the start of the SQL.
// Runs one or more statements that return no rows we need.
void exec(sqlite3* db, std::string_view sql);
// True when the database has a table (or view) of that name.
bool has_table(sqlite3* db, std::string_view name);
// Rows in a table; `table` is one of tlscope's own table names, never text from a log.
int64_t count_rows(sqlite3* db, std::string_view table);
// Whether `SELECT 1 FROM <from>` has a row: a table, or a table and its WHERE clause (tlscope's
// own SQL, never text from a log). Passes use it to skip statements whose every source row would
// come from what is empty here: compiling a statement costs more than reading an empty table,
// and a small log leaves most tables empty.
bool has_rows(sqlite3* db, std::string_view from);

}  // namespace tlscope::model
