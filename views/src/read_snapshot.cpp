#include "tlscope/views/read_snapshot.hpp"

namespace tlscope::views {

ReadSnapshot::ReadSnapshot(const Database& db) : db_(db) {
  db_.scalar("PRAGMA mmap_size = 1073741824");
  db_.scalar("BEGIN");
  db_.scalar("SELECT count(*) FROM sqlite_master");  // starts the read transaction now
}

ReadSnapshot::~ReadSnapshot() {
  db_.scalar("COMMIT");
}

}  // namespace tlscope::views
