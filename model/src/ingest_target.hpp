// Where an ingest writes, chosen so that a kill at any moment loses nothing that was there:
// - a new database is built under a temporary name beside its final path (created exclusively,
//   journal off: nothing on it needs protecting) and renamed into place only when complete, so a
//   killed ingest leaves no database at all, never a half-written one;
// - an existing database is appended to through a write-ahead log, so a kill rolls back to the
//   last commit and the files that were already there stay intact.
// Either way the target holds an advisory lock (flock) for the whole ingest: a second ingest into
// the same database is refused with a message instead of interleaving its rows.
#pragma once

#include <string>
#include <vector>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {

class IngestTarget {
 public:
  // Decides how `db_path` is written and takes its lock. Throws SqliteError (naming the path)
  // when another ingest holds it or the temporary file cannot be created.
  explicit IngestTarget(std::string db_path);
  // A fresh database that was not published (the ingest failed) is removed again.
  ~IngestTarget();
  IngestTarget(const IngestTarget&) = delete;
  IngestTarget& operator=(const IngestTarget&) = delete;

  bool fresh() const { return fresh_; }
  // The file the connection opens: the temporary file of a fresh database, else the database.
  const std::string& write_path() const { return fresh_ ? temp_path_ : db_path_; }
  // Fresh only: writes `image` (a whole database file) into the new temporary file before the
  // connection opens it. Throws SqliteError naming the file when it cannot.
  void write_initial_image(const std::string& image) const;
  // Bulk-load pragmas for a fresh database, the append pragmas (WAL) otherwise.
  void apply_pragmas(Connection& db) const;
  // Fresh: renames the complete temporary database to its final path, never over a file that
  // appeared there meanwhile (then it throws and the run's rows are dropped). Call it after the
  // connection is closed. Nothing to do for an append.
  void publish();

  // Temporary files of interrupted ingests into the same database, removed when this one began.
  const std::vector<std::string>& removed_leftovers() const { return removed_; }

 private:
  std::string db_path_, temp_path_;
  bool fresh_ = false;
  bool published_ = false;
  int lock_fd_ = -1;
  std::vector<std::string> removed_;
};

}  // namespace tlscope::model
