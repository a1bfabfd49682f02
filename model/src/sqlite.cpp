// RAII wrappers over sqlite3 / sqlite3_stmt.
#include "tlscope/model/sqlite.hpp"

#include <sys/stat.h>

#include <mutex>
#include <utility>

#include "tlscope/model/connection_guard.hpp"

namespace tlscope::model {
namespace {

// SQLite's message, and what it means for a tlscope database where its own words mislead.
std::string error_text(sqlite3* db) {
  std::string msg = sqlite3_errmsg(db);
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return msg +
             " (another process is writing it, such as a running tlscope ingest: try "
             "again when it has finished)";
    case SQLITE_NOTADB:
      return msg + " (not a tlscope database)";
    case SQLITE_CORRUPT:
      return msg + " (the file is damaged, most likely by an ingest killed while an older " +
             "tlscope wrote it without a journal: ingest the logs again into a new database)";
    case SQLITE_READONLY:
      if (sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK) {
        return msg + " (a write into it was interrupted and must be rolled back first: run " +
               "tlscope analyze on it once)";
      }
      return msg;
    default:
      return explain_guarded_error(db, msg);
  }
}

// Enough of a statement to recognise it; a whole schema script would bury the message.
std::string sql_excerpt(std::string_view sql) {
  constexpr size_t kMax = 120;
  return sql.size() <= kMax ? std::string(sql) : std::string(sql.substr(0, kMax)) + "...";
}

}  // namespace

// SQLite opens whatever the path names: a FIFO blocks its open() until some writer appears, and
// a device is read as if it were pages. So anything but a regular file is refused first.
std::string non_regular_database_reason(const std::string& path) {
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0) return "";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return "";  // missing: SQLite says
  const char* what = S_ISFIFO(st.st_mode)   ? "a FIFO"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                     : S_ISBLK(st.st_mode)  ? "a block device"
                     : S_ISDIR(st.st_mode)  ? "a directory"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "not a regular file";
  return path + ": cannot open database: " + what + ", not a regular file";
}

void configure_sqlite() {
  static std::once_flag once;
  // SQLITE_MISUSE when SQLite is already initialised (someone opened a database first): harmless,
  // it only means the counters stay on.
  std::call_once(once, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
}

Connection::Connection(const std::string& path, OpenMode mode) {
  configure_sqlite();
  if (std::string why = non_regular_database_reason(path); !why.empty()) throw SqliteError(why);
  int flags = mode == OpenMode::kReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  if (mode == OpenMode::kCreate) flags |= SQLITE_OPEN_CREATE;
  // A connection never crosses threads here: skip SQLite's per-call mutexes.
  flags |= SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db_ ? error_text(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqliteError(path + ": cannot open database: " + msg);
  }
  sqlite3_extended_result_codes(db_, 1);
  guard_ = std::make_unique<ConnectionGuard>(db_, path, mode != OpenMode::kReadOnly);
}

Connection::~Connection() {
  guard_.reset();
  sqlite3_close_v2(db_);
}

sqlite3* Connection::handle() const {
  if (guard_) guard_->add_own_views();
  return db_;
}

void Connection::add_own_views() {
  if (!guard_->add_own_views().empty()) throw SqliteError(error_text(db_));
}

void Connection::exec(const std::string& sql) {
  add_own_views();
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    sqlite3_free(err);
    throw SqliteError(error_text(db_));
  }
}

Statement Connection::prepare(std::string_view sql) {
  add_own_views();
  return Statement(db_, sql);
}

std::optional<int64_t> Connection::scalar_int(std::string_view sql) {
  add_own_views();
  Statement s(db_, sql);
  if (!s.step() || s.column_is_null(0)) return std::nullopt;
  return s.column_int(0);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &stmt_, nullptr) != SQLITE_OK) {
    throw SqliteError(error_text(db) + " in: " + sql_excerpt(sql));
  }
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

void Statement::bind_null(int i) {
  sqlite3_bind_null(stmt_, i);
}
void Statement::bind_int(int i, int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
}
void Statement::bind_double(int i, double v) {
  sqlite3_bind_double(stmt_, i, v);
}
void Statement::bind_text(int i, std::string_view v) {
  // An empty view may have a null data(), which SQLite would store as NULL instead of ''.
  sqlite3_bind_text64(stmt_, i, v.data() ? v.data() : "", v.size(), SQLITE_STATIC, SQLITE_UTF8);
}
void Statement::bind_opt_int(int i, const std::optional<int64_t>& v) {
  v ? bind_int(i, *v) : bind_null(i);
}
void Statement::bind_opt_double(int i, const std::optional<double>& v) {
  v ? bind_double(i, *v) : bind_null(i);
}
void Statement::bind_opt_text(int i, const std::optional<std::string_view>& v) {
  v ? bind_text(i, *v) : bind_null(i);
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string msg = error_text(db_);
  sqlite3_reset(stmt_);
  throw SqliteError(msg);
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t Statement::column_int(int i) const {
  return sqlite3_column_int64(stmt_, i);
}
double Statement::column_double(int i) const {
  return sqlite3_column_double(stmt_, i);
}
std::string Statement::column_text(int i) const {
  auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
  return p ? std::string(p, sqlite3_column_bytes(stmt_, i)) : std::string();
}
bool Statement::column_is_null(int i) const {
  return sqlite3_column_type(stmt_, i) == SQLITE_NULL;
}

}  // namespace tlscope::model
