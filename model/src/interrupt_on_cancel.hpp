// Lets a cancel stop a long SQLite statement (an index build, an analysis query) instead of
// waiting for it: while installed, SQLite asks `cancelled` every few thousand VM steps and a true
// answer interrupts the statement (SQLITE_INTERRUPT, thrown as SqliteError by the caller's step).
#pragma once

#include <functional>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {

class InterruptOnCancel {
 public:
  // Nothing is installed when `cancelled` is empty. `cancelled` must outlive this guard.
  InterruptOnCancel(sqlite3* db, const std::function<bool()>& cancelled) : db_(db) {
    if (!cancelled) return;
    sqlite3_progress_handler(
        db_, 4096,
        [](void* f) -> int { return (*static_cast<const std::function<bool()>*>(f))() ? 1 : 0; },
        const_cast<std::function<bool()>*>(&cancelled));
    installed_ = true;
  }
  ~InterruptOnCancel() {
    if (installed_) sqlite3_progress_handler(db_, 0, nullptr, nullptr);
  }
  InterruptOnCancel(const InterruptOnCancel&) = delete;
  InterruptOnCancel& operator=(const InterruptOnCancel&) = delete;

 private:
  sqlite3* db_;
  bool installed_ = false;
};

}  // namespace tlscope::model
