// One read transaction over a whole front-end pass (writing a report, loading a viewer's
// screens): every statement reads the same snapshot, and SQLite takes the file lock once instead
// of once per statement (without it the report of the 1 GB benchmark log made over 300 000
// lock and journal-probe syscalls). The database is also memory-mapped for the pass.
#pragma once

#include "tlscope/views/database.hpp"

namespace tlscope::views {

class ReadTransaction {
 public:
  explicit ReadTransaction(const Database& db);
  ~ReadTransaction();
  ReadTransaction(const ReadTransaction&) = delete;
  ReadTransaction& operator=(const ReadTransaction&) = delete;

  // False when the transaction could not start (the reads still work, each in its own).
  bool active() const { return active_; }

 private:
  const Database& db_;
  bool active_ = false;
};

}  // namespace tlscope::views
