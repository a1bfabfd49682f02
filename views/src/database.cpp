// Thin RAII wrapper over the SQLite C API, read-only: the one read path of views/.
#include "tlscope/views/database.hpp"

#include <cstdlib>
#include <filesystem>

#include "tlscope/model/connection_guard.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/views/cell_text.hpp"

namespace tlscope::views {

namespace {

// "path: " for messages; SQLite knows the file name of the main database.
std::string db_prefix(sqlite3* db) {
  const char* name = db ? sqlite3_db_filename(db, "main") : nullptr;
  return name && *name ? std::string(name) + ": " : std::string();
}

}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql) : sql_(sql.substr(0, 120)) {
  if (!db) {
    error_ = "no database";
    return;
  }
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    error_ = db_prefix(db) + model::explain_guarded_error(db, sqlite3_errmsg(db)) +
             " (in: " + sql_ + ")";
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
  }
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, int64_t value) {
  if (stmt_) sqlite3_bind_int64(stmt_, index, value);
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  if (stmt_)
    sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}

Statement& Statement::bind_null(int index) {
  if (stmt_) sqlite3_bind_null(stmt_, index);
  return *this;
}

bool Statement::step() {
  if (!stmt_) return false;
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) {
    sqlite3* db = sqlite3_db_handle(stmt_);
    error_ = db_prefix(db) + model::explain_guarded_error(db, sqlite3_errmsg(db)) +
             " (in: " + sql_ + ")";
  }
  return false;
}

void Statement::reset() {
  if (!stmt_) return;
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int col) const {
  return !stmt_ || sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

int64_t Statement::int64(int col) const {
  return stmt_ ? sqlite3_column_int64(stmt_, col) : 0;
}

double Statement::real(int col) const {
  return stmt_ ? sqlite3_column_double(stmt_, col) : 0.0;
}

std::string_view Statement::text_view(int col) const {
  if (!stmt_) return {};
  const unsigned char* p = sqlite3_column_text(stmt_, col);
  if (!p) return {};
  return {reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

std::string Statement::text(int col) const {
  return clip_cell_text(text_view(col));
}

std::optional<int64_t> Statement::opt_int64(int col) const {
  if (is_null(col)) return std::nullopt;
  return int64(col);
}

Database::Database(const std::string& path, bool writable) : path_(path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    error_ = path + ": no such database file";
    return;
  }
  // A FIFO or a device would block or spin in SQLite's open: refused by kind, by the model's rule.
  error_ = model::non_regular_database_reason(path);
  if (!error_.empty()) return;
  model::configure_sqlite();
  int flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    error_ = path + ": cannot open database: " + (db_ ? sqlite3_errmsg(db_) : "out of memory");
    sqlite3_close(db_);
    db_ = nullptr;
    return;
  }
  guard_ = std::make_unique<model::ConnectionGuard>(db_, path, false);
  // tlscope_clip(x), for SQL that would otherwise copy a huge cell through a sort, a subquery or
  // several JSON functions.
  model::register_clip_function(db_);
  // A file that is not a database only fails at the first read; probe now for a clear message.
  std::string probe_error;
  {
    Statement probe(db_, "SELECT count(*) FROM sqlite_master");
    if (probe.ok() && probe.step()) return;
    probe_error = probe.error().empty() ? std::string("unreadable") : probe.error();
  }  // the probe is finalized here: sqlite3_close refuses a connection with live statements
  // Busy and damaged are not "not a database": say what they mean for a tlscope database.
  switch (sqlite3_errcode(db_) & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      error_ = path +
               ": the database is being written by another process (a tlscope ingest?); "
               "try again when it has finished";
      break;
    case SQLITE_CORRUPT:
      error_ = path + ": the database file is damaged (" + sqlite3_errmsg(db_) +
               "), most likely by an ingest killed while an older tlscope wrote it without a "
               "journal: ingest the logs again into a new database";
      break;
    case SQLITE_READONLY:
      if (sqlite3_extended_errcode(db_) == SQLITE_READONLY_ROLLBACK) {
        // A read-only connection never rolls a hot journal back: that would rewrite the file with
        // pages from the journal, which may come from anywhere.
        error_ = path + ": a write into it was interrupted and its journal (" + path +
                 "-journal) must be rolled back before it can be read: `tlscope analyze " + path +
                 "` does that, writing the journal's pages into the file (trust the journal first)";
        break;
      }
      [[fallthrough]];
    default:
      error_ = path + ": not a tlscope database (" + probe_error + ")";
  }
  guard_.reset();
  sqlite3_close(db_);
  db_ = nullptr;
}

void Database::add_own_views(std::string_view sql) const {
  if (guard_) guard_->add_own_views(sql);
}

Database::~Database() {
  guard_.reset();
  sqlite3_close(db_);
}

std::string Database::not_tlscope_reason() const {
  if (!ok()) return error_;
  if (!has_table("events")) return path_ + ": not a tlscope database (no events table)";
  // An older schema stored sentences where this one stores facts (docs/schema.md, meta): its
  // rows would read wrongly, so it is refused. A database without meta (a hand-made one) reads.
  if (has_table("meta")) {
    Statement v(db_, "SELECT value FROM meta WHERE key = 'schema_version'");
    if (v.step()) {
      const std::string version = v.text(0);
      if (version != model::kSchemaVersion)
        return path_ + ": written by " +
               (std::atoll(version.c_str()) < std::atoll(std::string(model::kSchemaVersion).c_str())
                    ? "an older"
                    : "a newer") +
               " tlscope (schema " + version + "; this one reads " +
               std::string(model::kSchemaVersion) + "): ingest its logs again";
    }
  }
  return {};
}

bool Database::has_column(std::string_view table, std::string_view column) const {
  Statement s(db_, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?");
  s.bind(1, table).bind(2, column);
  return s.step();
}

bool Database::has_table(std::string_view name) const {
  // A table this connection's schema already holds is answered from it, with no statement to
  // compile (a report asks ~70 times: 4% of a small report's instructions went to those). Views,
  // tables created since the schema was read, and absent names go to sqlite_master as before.
  std::string table(name);
  if (db_ && sqlite3_table_column_metadata(db_, "main", table.c_str(), nullptr, nullptr, nullptr,
                                           nullptr, nullptr, nullptr) == SQLITE_OK)
    return true;
  Statement s(db_, "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?");
  s.bind(1, name);
  return s.step();
}

int64_t Database::scalar(std::string_view sql) const {
  Statement s = prepare(sql);
  return s.step() ? s.int64(0) : 0;
}

}  // namespace tlscope::views
