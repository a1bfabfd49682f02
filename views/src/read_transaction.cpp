// BEGIN only defers the lock; the first read takes it, so the constructor reads once.
#include "tlscope/views/read_transaction.hpp"

namespace tlscope::views {

ReadTransaction::ReadTransaction(const Database& db) : db_(db) {
  if (!db.ok()) return;
  db.prepare("PRAGMA mmap_size = 1073741824").step();
  Statement begin = db.prepare("BEGIN");
  begin.step();
  if (!begin.error().empty()) return;
  active_ = true;
  db.prepare("SELECT count(*) FROM sqlite_master").step();
}

ReadTransaction::~ReadTransaction() {
  if (active_) db_.prepare("COMMIT").step();
}

}  // namespace tlscope::views
