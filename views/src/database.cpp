// The read facade of views/ over the model's SQLite wrapper: exceptions become values.
#include "tlscope/views/database.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tlscope/model/connection_guard.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/views/cell_text.hpp"

namespace tlscope::views {

namespace {

// tlscope_contains(X, Y): instr(X, Y) > 0, by memmem. SQLite's instr calls memcmp at every
// character of X; finding a key in each compile's metrics record (16 KB each, 3,043 of them in
// the 1 GB log) was a third of reading its caches. The same answers: NULL when either is NULL;
// like instr, text is searched at character starts only (not at a UTF-8 continuation byte past
// the first), two blobs at every byte.
void sql_contains(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const int type_hay = sqlite3_value_type(argv[0]), type_needle = sqlite3_value_type(argv[1]);
  if (type_hay == SQLITE_NULL || type_needle == SQLITE_NULL) return;  // NULL, as instr
  const bool text = !(type_hay == SQLITE_BLOB && type_needle == SQLITE_BLOB);
  const auto* needle = static_cast<const unsigned char*>(text ? sqlite3_value_text(argv[1])
                                                              : sqlite3_value_blob(argv[1]));
  const auto needle_bytes = static_cast<size_t>(sqlite3_value_bytes(argv[1]));
  const auto* hay = static_cast<const unsigned char*>(text ? sqlite3_value_text(argv[0])
                                                           : sqlite3_value_blob(argv[0]));
  const auto hay_bytes = static_cast<size_t>(sqlite3_value_bytes(argv[0]));
  if (needle_bytes == 0) {
    sqlite3_result_int(ctx, 1);  // instr('x', '') is 1
    return;
  }
  if (!hay && hay_bytes == 0) {  // an empty blob has no pointer: nothing to find in it
    sqlite3_result_int(ctx, 0);
    return;
  }
  if (!needle || !hay) {  // a failed conversion to text, as instr reports it
    sqlite3_result_error_nomem(ctx);
    return;
  }
  // A match at i > 0 counts unless it starts on a continuation byte (instr steps over those).
  const bool mid_char = text && (needle[0] & 0xc0) == 0x80;
  for (size_t from = 0; from + needle_bytes <= hay_bytes;) {
    const void* at = memmem(hay + from, hay_bytes - from, needle, needle_bytes);
    if (!at) break;
    const auto i = static_cast<size_t>(static_cast<const unsigned char*>(at) - hay);
    if (i == 0 || !mid_char) {
      sqlite3_result_int(ctx, 1);
      return;
    }
    from = i + 1;
  }
  sqlite3_result_int(ctx, 0);
}

// "path: " for messages; SQLite knows the file name of the main database.
std::string db_prefix(sqlite3* db) {
  const char* name = db ? sqlite3_db_filename(db, "main") : nullptr;
  return name && *name ? std::string(name) + ": " : std::string();
}

}  // namespace

Statement::Statement(sqlite3* db, std::string_view sql) {
  if (!db) {
    error_ = "no database";
    return;
  }
  path_ = db_prefix(db);
  try {
    stmt_ = std::make_unique<model::Statement>(db, sql);
  } catch (const model::SqliteError& e) {
    error_ = path_ + e.what();
  }
}

Statement::Statement(Statement&& other) noexcept = default;
Statement::~Statement() = default;

Statement& Statement::bind(int index, int64_t value) {
  try {
    if (stmt_) stmt_->bind(index, value);
  } catch (const model::SqliteError& e) {
    if (error_.empty()) error_ = path_ + e.what();
  }
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  try {
    if (stmt_) stmt_->bind(index, value);
  } catch (const model::SqliteError& e) {
    if (error_.empty()) error_ = path_ + e.what();
  }
  return *this;
}

Statement& Statement::bind_null(int index) {
  try {
    if (stmt_) stmt_->bind_null(index);
  } catch (const model::SqliteError& e) {
    if (error_.empty()) error_ = path_ + e.what();
  }
  return *this;
}

bool Statement::step() {
  if (!stmt_ || !error_.empty()) return false;
  try {
    return stmt_->step();
  } catch (const model::SqliteError& e) {
    error_ = path_ + e.what();
    return false;
  }
}

void Statement::reset() {
  if (stmt_) stmt_->reset();
}

bool Statement::is_null(int col) const {
  return !stmt_ || stmt_->is_null(col);
}

int64_t Statement::int64(int col) const {
  return stmt_ ? stmt_->int64(col) : 0;
}

double Statement::real(int col) const {
  return stmt_ ? stmt_->real(col) : 0.0;
}

std::string_view Statement::text_view(int col) const {
  return stmt_ ? stmt_->text_view(col) : std::string_view();
}

std::string Statement::text(int col) const {
  return clip_cell_text(text_view(col));
}

std::optional<int64_t> Statement::opt_int64(int col) const {
  if (is_null(col)) return std::nullopt;
  return int64(col);
}

int Statement::column_count() const {
  return stmt_ ? stmt_->column_count() : 0;
}

std::string_view Statement::column_name(int col) const {
  return stmt_ ? stmt_->column_name(col) : std::string_view();
}

Database::Database(const std::string& path) : path_(path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    error_ = path + ": no such database file";
    return;
  }
  try {
    // Refuses a FIFO or a device (they would block or spin in SQLite's open) and guards the
    // connection, by the model's rules.
    connection_ = std::make_unique<model::Connection>(path, model::OpenMode::kReadOnly);
  } catch (const model::SqliteError& e) {
    error_ = e.what();
    return;
  }
  sqlite3* db = connection_->raw_handle();
  // tlscope_clip(x), for SQL that would otherwise copy a huge cell through a sort, a subquery or
  // several JSON functions.
  model::register_clip_function(db);
  sqlite3_create_function(db, "tlscope_contains", 2,
                          SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                          sql_contains, nullptr, nullptr);
  // A file that is not a database only fails at the first read; probe now for a clear message.
  std::string probe_error;
  try {
    model::Statement probe(db, "SELECT count(*) FROM sqlite_master");
    probe.step();
    db_ = db;
    return;
  } catch (const model::SqliteError& e) {
    probe_error = e.what();
  }  // the probe is finalized here: sqlite3_close refuses a connection with live statements
  // Busy and damaged are not "not a database": say what they mean for a tlscope database.
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      error_ = path +
               ": the database is being written by another process (a tlscope ingest?); "
               "try again when it has finished";
      break;
    case SQLITE_CORRUPT:
      error_ = path + ": the database file is damaged (" + sqlite3_errmsg(db) +
               "), most likely by an ingest killed while an older tlscope wrote it without a "
               "journal: ingest the logs again into a new database";
      break;
    case SQLITE_READONLY:
      if (sqlite3_extended_errcode(db) == SQLITE_READONLY_ROLLBACK) {
        // A read-only connection never rolls a hot journal back: that would rewrite the file with
        // pages from the journal, which may come from anywhere.
        error_ = path + ": a write into it was interrupted and its journal (" + path +
                 "-journal) must be rolled back before it can be read: `tlscope analyze " + path +
                 "` does that, writing the journal's pages into the file (trust the journal first)";
        break;
      }
      [[fallthrough]];
    default:
      error_ = path + ": not a tlscope database (" + path + ": " + probe_error + ")";
  }
  connection_.reset();
}

void Database::add_own_views(std::string_view sql) const {
  if (connection_) connection_->add_views_named_in(sql);
}

Database::~Database() = default;

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

bool Database::has_table(std::string_view name) const {
  if (!db_) return false;
  try {
    return model::has_table(db_, name);
  } catch (const model::SqliteError&) {
    return false;  // the next read of that table says why
  }
}

bool Database::has_column(std::string_view table, std::string_view column) const {
  Statement s(db_, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?");
  s.bind(1, table).bind(2, column);
  return s.step();
}

int64_t Database::scalar(std::string_view sql) const {
  Statement s = prepare(sql);
  return s.step() ? s.int64(0) : 0;
}

}  // namespace tlscope::views
