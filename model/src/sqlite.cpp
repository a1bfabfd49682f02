// RAII wrappers over sqlite3 / sqlite3_stmt.
#include "tlscope/model/sqlite.hpp"

#include <sys/stat.h>

#include <mutex>
#include <utility>

#include "tlscope/model/cell_text.hpp"
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

void Connection::add_views_named_in(std::string_view sql) const {
  if (guard_) guard_->add_own_views(sql);
}

void Connection::exec(const std::string& sql) {
  add_own_views();
  model::exec(db_, sql);
}

Statement Connection::prepare(std::string_view sql) {
  add_own_views();
  return Statement(db_, sql);
}

std::optional<int64_t> Connection::scalar_int(std::string_view sql) {
  add_own_views();
  Statement s(db_, sql);
  if (!s.step()) return std::nullopt;
  return s.opt_int64(0);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &stmt_, nullptr) != SQLITE_OK) {
    std::string error = error_text(db);
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    throw SqliteError(error + " in: " + sql_excerpt(sql));
  }
}

std::optional<Statement> Statement::first_of(sqlite3* db, std::string_view& script) {
  Statement s;
  s.db_ = db;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, script.data(), static_cast<int>(script.size()), &s.stmt_, &tail) !=
      SQLITE_OK) {
    throw SqliteError(error_text(db) + " in: " + sql_excerpt(script));
  }
  script.remove_prefix(tail ? static_cast<size_t>(tail - script.data()) : script.size());
  if (s.stmt_ == nullptr) return std::nullopt;  // whitespace or a comment
  return s;
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

void Statement::fail(const char* what) const {
  const char* sql = stmt_ ? sqlite3_sql(stmt_) : nullptr;
  throw SqliteError(std::string(what) + ": " + error_text(db_) +
                    " in: " + sql_excerpt(sql ? sql : ""));
}

Statement& Statement::bind(int index, int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail("bind");
  return *this;
}
Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail("bind");
  return *this;
}
Statement& Statement::bind(int index, std::string_view value) {
  // An empty view may have a null data(), which SQLite would store as NULL instead of ''.
  if (sqlite3_bind_text64(stmt_, index, value.data() ? value.data() : "", value.size(),
                          SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
    fail("bind");
  return *this;
}
Statement& Statement::bind(int index, const std::optional<int64_t>& value) {
  return value ? bind(index, *value) : bind_null(index);
}
Statement& Statement::bind(int index, const std::optional<double>& value) {
  return value ? bind(index, *value) : bind_null(index);
}
Statement& Statement::bind(int index, const std::optional<std::string>& value) {
  return value ? bind(index, std::string_view(*value)) : bind_null(index);
}
Statement& Statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail("bind");
  return *this;
}
Statement& Statement::bind_static(int index, std::string_view value) {
  if (sqlite3_bind_text64(stmt_, index, value.data() ? value.data() : "", value.size(),
                          SQLITE_STATIC, SQLITE_UTF8) != SQLITE_OK)
    fail("bind");
  return *this;
}
Statement& Statement::bind_static(int index, const std::optional<std::string_view>& value) {
  return value ? bind_static(index, *value) : bind_null(index);
}
Statement& Statement::bind_clipped(int index, std::string_view value) {
  if (value.size() <= kCellTextLimit) return bind(index, value);
  return bind(index, std::string_view(clip_cell_text(value)));
}
Statement& Statement::bind_clipped(int index, const std::optional<std::string>& value) {
  return value ? bind_clipped(index, std::string_view(*value)) : bind_null(index);
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string msg = error_text(db_);
  sqlite3_reset(stmt_);
  throw SqliteError(msg + " in: " + sql_excerpt(sqlite3_sql(stmt_)));
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

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}
int64_t Statement::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}
double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}
std::string Statement::text(int column) const {
  return std::string(text_view(column));
}
std::string_view Statement::text_view(int column) const {
  auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  if (!p) return {};
  return std::string_view(p, static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}
std::optional<int64_t> Statement::opt_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return int64(column);
}
std::optional<double> Statement::opt_real(int column) const {
  if (is_null(column)) return std::nullopt;
  return real(column);
}
std::optional<std::string> Statement::opt_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}
bool Statement::is_number(int column) const {
  const int type = sqlite3_column_type(stmt_, column);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}
bool Statement::read_only() const {
  return sqlite3_stmt_readonly(stmt_) != 0;
}
int Statement::column_count() const {
  return stmt_ ? sqlite3_column_count(stmt_) : 0;
}
std::string_view Statement::column_name(int column) const {
  const char* name = stmt_ ? sqlite3_column_name(stmt_, column) : nullptr;
  return name ? name : "";
}

AuthorizerHook::AuthorizerHook(sqlite3* db, Admit admit) : db_(db), admit_(std::move(admit)) {
  sqlite3_set_authorizer(db_, on_action, this);
}

AuthorizerHook::~AuthorizerHook() {
  sqlite3_set_authorizer(db_, nullptr, nullptr);
}

int AuthorizerHook::on_action(void* hook, int code, const char* arg1, const char* arg2, const char*,
                              const char*) {
  return static_cast<AuthorizerHook*>(hook)->admit_({code, arg1, arg2}) ? SQLITE_OK : SQLITE_DENY;
}

void exec(sqlite3* db, std::string_view sql) {
  std::string text(sql);
  char* message = nullptr;
  if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    sqlite3_free(message);
    throw SqliteError(error_text(db) + " in: " + sql_excerpt(text));
  }
}

bool has_table(sqlite3* db, std::string_view name) {
  // A table this connection's schema already holds is answered from it, with no statement to
  // compile (a report asks ~70 times: 4% of a small report's instructions went to those). Views,
  // tables created since the schema was read, and absent names go to sqlite_master.
  const std::string table(name);
  if (sqlite3_table_column_metadata(db, "main", table.c_str(), nullptr, nullptr, nullptr, nullptr,
                                    nullptr, nullptr) == SQLITE_OK)
    return true;
  Statement q(db, "SELECT 1 FROM sqlite_master WHERE name = ?1 AND type IN ('table', 'view')");
  q.bind(1, name);
  return q.step();
}

int64_t count_rows(sqlite3* db, std::string_view table) {
  Statement q(db, "SELECT count(*) FROM \"" + std::string(table) + '"');
  return q.step() ? q.int64(0) : 0;
}

bool has_rows(sqlite3* db, std::string_view from) {
  Statement q(db, "SELECT 1 FROM " + std::string(from) + " LIMIT 1");
  return q.step();
}

}  // namespace tlscope::model
