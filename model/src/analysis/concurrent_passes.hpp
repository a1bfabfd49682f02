// Analysis passes that read only ingest tables, run on a second connection and a thread of their
// own while the analysis connection runs the others; their rows are then copied into the
// analysis's transaction, so the tables end up exactly as a serial run writes them.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tlscope/model/connection_guard.hpp"

namespace tlscope::model::analysis {

struct ConcurrentPass {
  const char* name;
  void (*run)(sqlite3*);
};

// Why a failed statement failed, in the user's terms where SQLite's own words mislead (a busy
// database, a damaged file); `what` otherwise. On the connection the statement failed on.
std::string failure_text(sqlite3* db, const std::string& what);

class ConcurrentPasses {
 public:
  // Opens a read-only connection that sees what `db` sees, makes the tables of `passes` in a
  // private temporary database beside it, and starts the passes on a thread. `db` must already
  // hold its write transaction (BEGIN IMMEDIATE) and have written nothing in it: the reader's
  // snapshot is taken here. Null when the file cannot be read beside `db` (an in-memory
  // database, WAL without shared memory, auto-vacuum, a failed open): the caller runs them itself.
  static std::unique_ptr<ConcurrentPasses> start(sqlite3* db, std::vector<ConcurrentPass> passes);
  // Interrupts the passes if they still run and waits for them.
  ~ConcurrentPasses();
  ConcurrentPasses(const ConcurrentPasses&) = delete;
  ConcurrentPasses& operator=(const ConcurrentPasses&) = delete;

  // Waits for the passes. When one failed: its index in `passes` and the message.
  void wait();
  int failed_pass() const { return failed_pass_; }  // -1 when none failed
  const std::string& error() const { return error_; }
  // Wall seconds of each pass, in the order of `passes` (after wait()).
  const std::vector<double>& seconds() const { return seconds_; }
  // After a wait() without failure: appends every row of `tables` (their names) to the same,
  // empty tables of `db`, in rowid order and with their rowids. Throws SqliteError.
  void copy_into(sqlite3* db, const std::vector<std::string>& tables);

 private:
  ConcurrentPasses(sqlite3* reader, std::unique_ptr<ConnectionGuard> guard,
                   std::vector<ConcurrentPass> passes);
  void run_passes();

  sqlite3* reader_;
  // The reader is guarded as every connection is: the file it attaches may be hostile, and its
  // passes must not run the file's views or triggers, nor work on without end.
  std::unique_ptr<ConnectionGuard> guard_;
  std::vector<ConcurrentPass> passes_;
  std::vector<double> seconds_;
  int failed_pass_ = -1;
  std::string error_;
  std::thread thread_;
};

}  // namespace tlscope::model::analysis
