// What every connection tlscope opens does before it runs a statement, because the database may
// come from anyone (a colleague's file, a rage bundle, a merge shard): SQLite's advice for
// untrusted database files, applied in one place for model/ and views/ (docs/schema.md,
// "Databases from elsewhere"). SQL stored in the file never runs: its triggers and views are
// disabled and tlscope's own views are defined again as TEMP views; cells are checked as pages are
// read; and a watchdog stops a statement that works longer than a database of its size can need
// without producing a row.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace tlscope::model {

class ConnectionGuard {
 public:
  // Applies the settings to `db`, just opened on `path`. A reader is also made defensive; a
  // `writer` is not (a bulk load's journal_mode=OFF needs that) and gets temp_store=MEMORY now, as
  // its pragmas would set it later (which would delete the TEMP views).
  ConnectionGuard(sqlite3* db, const std::string& path, bool writer);
  ~ConnectionGuard();  // removes the handlers, which point here
  ConnectionGuard(const ConnectionGuard&) = delete;
  ConnectionGuard& operator=(const ConnectionGuard&) = delete;

  // Makes tlscope's own views readable, each once: all of them, or with `sql` those it names (a
  // reader that never reads a view pays nothing). When every view stored in the file is one of
  // tlscope's with its very SQL (a file tlscope made, or one still empty), views are turned back
  // on for this connection and the file's are read; otherwise the file's views stay off and
  // tlscope's are made as TEMP views (four CREATE TEMP VIEW statements cost ~1.3 M instructions a
  // connection, 9% of a small job's one command). "" when done, or SQLite's message: it reads the
  // schema, so a locked or damaged file fails here the way the first statement would.
  std::string add_own_views(std::string_view sql = {});

  double limit_seconds() const { return limit_.count(); }

 private:
  static int on_progress(void* guard);
  static int on_trace(unsigned kind, void* guard, void*, void*);

  // Reads which of tlscope's view names the file holds, and how (a table, or a view of tlscope's
  // very SQL), and turns views on when it holds no other view. "" or SQLite's message.
  std::string read_file_views();

  sqlite3* db_;
  bool file_read_ = false;   // read_file_views done
  uint32_t views_done_ = 0;  // bit i: own_views()[i] readable (made, the file's own, or a table)
  std::chrono::duration<double> limit_;
  // Rows produced and statements started: what the watchdog counts as progress.
  uint64_t progress_ = 0;
  uint64_t progress_seen_ = ~uint64_t{0};
  std::chrono::steady_clock::time_point since_{};
  std::chrono::steady_clock::time_point last_call_{};
};

// The time one statement may work without producing a row on the database at `path`: 30 s plus
// 1 s per 20 MB of file (an honest statement on the 1 GB benchmark database takes under 1 s), or
// TLSCOPE_STATEMENT_SECONDS when set.
std::chrono::duration<double> statement_time_limit(const std::string& path);

// What SQLITE_INTERRUPT means on a tlscope connection, for messages.
std::string interrupted_reason();

// SQLite's message for a statement that failed on `db`, with what it means for a database from
// elsewhere where SQLite's own words say too little ("access to view prohibited").
std::string explain_guarded_error(sqlite3* db, std::string message);

}  // namespace tlscope::model
