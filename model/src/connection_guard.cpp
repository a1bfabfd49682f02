// The settings of connection_guard.hpp. Why each one, from SQLite's advice on database files of
// unknown origin (https://www.sqlite.org/security.html):
// - triggers off: a trigger stored on events or findings would run its own SQL inside an append,
//   an analysis or a merge;
// - views off, tlscope's own as TEMP views: a view named like a table (events as a recursive CTE
//   that never ends) would run whatever it says whenever tlscope reads that name; views back on
//   only for a file whose every view is tlscope's own, with its very SQL (one that tlscope made);
// - trusted_schema stays on: it would forbid the JSON functions of tlscope's own views (TEMP
//   views count as schema too), and it guards application-defined functions with side effects,
//   of which tlscope registers none; the built-in ones a CHECK, DEFAULT, generated column or index
//   in the file can call only compute (load_extension is off);
// - defensive on readers: no writable_schema, no writes to shadow tables, even by mistake (not on
//   writers: it also refuses journal_mode=OFF, which a fresh ingest's bulk load sets, and their
//   SQL is all tlscope's own);
// - cell_size_check: a damaged page is found as it is read, not after reading beyond its cells;
// - the watchdog: a statement over hostile data can still be made slow (a join on one key that
//   every row shares), so one that works for far longer than an honest database of its size can
//   need without producing a row is interrupted, with a message that says so.
#include "tlscope/model/connection_guard.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <span>

#include "tlscope/model/schema.hpp"

namespace tlscope::model {
namespace {

// The handler runs every this many VM instructions: a few ms apart, too rare to cost anything.
constexpr int kProgressInstructions = 1 << 20;

}  // namespace

std::chrono::duration<double> statement_time_limit(const std::string& path) {
  if (const char* env = std::getenv("TLSCOPE_STATEMENT_SECONDS"); env && *env) {
    char* end = nullptr;
    double s = std::strtod(env, &end);
    if (end != env && s > 0) return std::chrono::duration<double>(s);
  }
  struct stat st {};
  double bytes = ::stat(path.c_str(), &st) == 0 ? static_cast<double>(st.st_size) : 0.0;
  return std::chrono::duration<double>(30.0 + bytes / 20e6);
}

std::string interrupted_reason() {
  return "stopped: a statement worked longer than any database of this size needs without a "
         "result (a damaged or deliberately hostile database?); TLSCOPE_STATEMENT_SECONDS sets the "
         "limit";
}

namespace {

// Views in the file that tlscope did not make, "a, b" (the first few), for an error's message.
std::string foreign_views(sqlite3* db) {
  std::string sql =
      "SELECT group_concat(name, ', ') FROM (SELECT name FROM main.sqlite_master WHERE type = "
      "'view' AND name NOT IN (";
  for (const OwnView& v : own_views()) sql.append("'").append(v.name).append("',");
  sql.back() = ')';
  sql += " ORDER BY name LIMIT 5)";
  sqlite3_stmt* s = nullptr;
  std::string names;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK &&
      sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
    names = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
  }
  sqlite3_finalize(s);
  return names;
}

}  // namespace

std::string explain_guarded_error(sqlite3* db, std::string message) {
  const int code = sqlite3_errcode(db) & 0xff;
  if (code == SQLITE_INTERRUPT) return message + " (" + interrupted_reason() + ")";
  if (code != SQLITE_ERROR) return message;
  const bool prohibited = message.find("prohibited") != std::string::npos;
  // A view's SQL that is not run can also fail as "no such table" (its CTE's name): the views
  // of the file are what to mention either way.
  std::string views = prohibited || message.find("no such") != std::string::npos ? foreign_views(db)
                                                                                 : std::string();
  if (!prohibited && views.empty()) return message;
  return message + " (tlscope does not run views or triggers stored in a database file" +
         (views.empty() ? std::string() : "; this one has views tlscope never makes: " + views) +
         ": where tlscope keeps a table it has other SQL, so it was not made by tlscope or was "
         "altered)";
}

ConnectionGuard::ConnectionGuard(sqlite3* db, const std::string& path, bool writer)
    : db_(db), limit_(statement_time_limit(path)) {
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
  sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  if (!writer) sqlite3_db_config(db_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  // Pragmas that read nothing: they cannot fail on a file that is not a database.
  sqlite3_exec(db_, "PRAGMA cell_size_check=ON; PRAGMA mmap_size=0", nullptr, nullptr, nullptr);
  // Changing temp_store deletes every TEMP object, tlscope's views with them; a writer's pragmas
  // (schema.hpp) set it to MEMORY, so it is set first and their setting changes nothing.
  if (writer) sqlite3_exec(db_, "PRAGMA temp_store=MEMORY", nullptr, nullptr, nullptr);
  sqlite3_trace_v2(db_, SQLITE_TRACE_STMT | SQLITE_TRACE_ROW, on_trace, this);
  sqlite3_progress_handler(db_, kProgressInstructions, on_progress, this);
}

ConnectionGuard::~ConnectionGuard() {
  sqlite3_progress_handler(db_, 0, nullptr, nullptr);
  sqlite3_trace_v2(db_, 0, nullptr, nullptr);
}

std::string ConnectionGuard::read_file_views() {
  std::span<const OwnView> views = own_views();
  uint32_t tables = 0;
  bool foreign = false;
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_,
                         "SELECT type, name, sql FROM main.sqlite_master WHERE type IN ('view', "
                         "'table')",
                         -1, &s, nullptr) != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(db_);
    sqlite3_finalize(s);
    return msg;
  }
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    auto text = [&](int col) {
      const unsigned char* t = sqlite3_column_text(s, col);
      return t ? std::string_view(reinterpret_cast<const char*>(t),
                                  static_cast<size_t>(sqlite3_column_bytes(s, col)))
               : std::string_view();
    };
    const bool is_view = text(0) == "view";
    const std::string_view name = text(1);
    size_t i = 0;
    while (i < views.size() && i < 32 && views[i].name != name) ++i;
    const bool own_name = i < views.size() && i < 32;
    if (!is_view) {
      // A file that holds the name as a table (schema version 1 stored chromium_events as one,
      // version 2 compilation_metrics; test fixtures do) is read as it is: a table is data.
      if (own_name) tables |= 1u << i;
      continue;
    }
    // SQLite stores a CREATE VIEW as "CREATE VIEW name AS..." whatever IF NOT EXISTS or schema
    // name it was given, so a view tlscope made is exactly this text.
    const std::string made =
        own_name ? "CREATE VIEW " + std::string(name) + " AS" + std::string(views[i].select)
                 : std::string();
    if (!own_name || text(2) != made) foreign = true;
  }
  std::string msg = rc == SQLITE_DONE ? std::string() : std::string(sqlite3_errmsg(db_));
  sqlite3_finalize(s);
  if (!msg.empty()) return msg;
  file_read_ = true;
  views_done_ |= tables;
  if (!foreign) {
    // Every view in the file is tlscope's own SQL: running it runs nothing tlscope did not write.
    // Those it lacks stay missing, as in the file (compile_directory until the analysis makes it;
    // every view of a file still being made), rather than made as TEMP views: a read of one fails
    // as "no such table", as it would without the guard.
    sqlite3_db_config(db_, SQLITE_DBCONFIG_ENABLE_VIEW, 1, nullptr);
    views_done_ = (1u << views.size()) - 1;
  }
  return {};
}

std::string ConnectionGuard::add_own_views(std::string_view sql) {
  std::span<const OwnView> views = own_views();
  const uint32_t all = (1u << views.size()) - 1;
  if (views_done_ == all) return {};
  std::string script;
  for (size_t i = 0; i < views.size() && i < 32; ++i) {
    const OwnView& v = views[i];
    const uint32_t bit = 1u << i;
    if ((views_done_ & bit) || (!sql.empty() && sql.find(v.name) == std::string_view::npos))
      continue;
    if (!file_read_) {
      if (std::string msg = read_file_views(); !msg.empty()) return msg;  // unreadable file
      if (views_done_ & bit) continue;
    }
    script.append(own_view_ddl(v, true)).push_back(';');
    views_done_ |= bit;
  }
  if (script.empty()) return {};
  char* err = nullptr;
  if (sqlite3_exec(db_, script.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    views_done_ = 0;
    file_read_ = false;
    return msg;
  }
  return {};
}

int ConnectionGuard::on_trace(unsigned, void* guard, void*, void*) {
  ++static_cast<ConnectionGuard*>(guard)->progress_;
  return 0;
}

int ConnectionGuard::on_progress(void* guard) {
  auto* g = static_cast<ConnectionGuard*>(guard);
  auto now = std::chrono::steady_clock::now();
  // Calls come milliseconds apart while SQLite works; a longer gap is time spent outside it (the
  // caller's own work between two steps), which is no statement's time.
  const bool resumed = now - g->last_call_ > std::chrono::seconds(1);
  g->last_call_ = now;
  if (resumed || g->progress_ != g->progress_seen_) {
    g->progress_seen_ = g->progress_;
    g->since_ = now;
    return 0;
  }
  return now - g->since_ > g->limit_ ? 1 : 0;
}

}  // namespace tlscope::model
