#include "tlscope/views/read_snapshot.hpp"

namespace tlscope::views {

ReadSnapshot::ReadSnapshot(const Database& db) : db_(db) {
  // No memory map: every mapped page the report touches stays in its RSS (834 MiB on the 1 GB
  // benchmark log, which the report reads almost whole). pread through a small page cache
  // reads each page about once (52k reads of 16 KiB there) and keeps the RSS to the cache.
  db_.scalar("PRAGMA mmap_size = 0");
  db_.scalar("PRAGMA cache_size = -8192");  // KiB: 8 MiB, enough for the indexes' inner pages
  db_.scalar("BEGIN");
  db_.scalar("SELECT count(*) FROM sqlite_master");  // starts the read transaction now
}

ReadSnapshot::~ReadSnapshot() {
  db_.scalar("COMMIT");
}

}  // namespace tlscope::views
