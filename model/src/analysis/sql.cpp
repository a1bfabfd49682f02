// Prepared-statement wrapper used by every analysis pass.
#include "sql.hpp"

#include "tlscope/model/cell_text.hpp"
#include "tlscope/model/connection_guard.hpp"

namespace tlscope::model::analysis {

void exec(sqlite3* db, std::string_view sql) {
  std::string text(sql);
  char* message = nullptr;
  if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string error = explain_guarded_error(db, message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    throw SqlError("SQL failed: " + error + " in: " + text.substr(0, 300));
  }
}

bool has_table(sqlite3* db, std::string_view name) {
  Statement q(db, "SELECT 1 FROM sqlite_master WHERE name = ?1 AND type IN ('table', 'view')");
  q.bind(1, name);
  return q.step();
}

int64_t count_rows(sqlite3* db, std::string_view table) {
  Statement q(db, "SELECT count(*) FROM " + std::string(table));
  return q.step() ? q.int64(0) : 0;
}

bool has_rows(sqlite3* db, std::string_view from) {
  Statement q(db, "SELECT 1 FROM " + std::string(from) + " LIMIT 1");
  return q.step();
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    std::string error = explain_guarded_error(db, sqlite3_errmsg(db));
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    throw SqlError("SQL prepare failed: " + error + " in: " + std::string(sql.substr(0, 300)));
  }
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::fail(const char* what) const {
  throw SqlError(std::string("SQL ") + what +
                 " failed: " + explain_guarded_error(db_, sqlite3_errmsg(db_)) +
                 " in: " + std::string(sqlite3_sql(stmt_)).substr(0, 300));
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
  if (sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK)
    fail("bind");
  return *this;
}
Statement& Statement::bind(int index, std::optional<int64_t> value) {
  return value ? bind(index, *value) : bind_null(index);
}
Statement& Statement::bind(int index, std::optional<double> value) {
  return value ? bind(index, *value) : bind_null(index);
}
Statement& Statement::bind(int index, std::optional<std::string> value) {
  return value ? bind(index, std::string_view(*value)) : bind_null(index);
}
Statement& Statement::bind_clipped(int index, std::string_view value) {
  if (value.size() <= kCellTextLimit) return bind(index, value);
  return bind(index, std::string_view(clip_cell_text(value)));
}
Statement& Statement::bind_clipped(int index, const std::optional<std::string>& value) {
  return value ? bind_clipped(index, std::string_view(*value)) : bind_null(index);
}
Statement& Statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail("bind");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail("step");
}

void Statement::run() {
  step();
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

}  // namespace tlscope::model::analysis
