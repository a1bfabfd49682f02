// The analysis of a database file on a connection of its own (`tlscope analyze`, the analysis
// after `tlscope ingest`, ensure_analysis): through a write-ahead log, with only the syncs that
// keep the file whole.
//
// The syncs, and why these: the analysis is derived data (ensure_analysis rebuilds it when its
// tables are missing), so its own commit need not survive a power cut; it must only never be
// half-visible, and the ingest's rows must never be damaged. Hence:
// - switching the journal mode rewrites two bytes of the header on page 1 and nothing else; old or
//   new, the file is valid, so the switch needs no sync (SQLite's own makes 4, the first of which
//   waits for every page an ingest just wrote without syncing: 0.46 s after the 1 GB log);
// - the analysis commits into the WAL, whose checksummed frames make a cut-off commit invisible;
// - the checkpoint syncs the WAL before it overwrites any page of the database, and the database
//   before the WAL is emptied: the only syncs kept, since a checkpoint overwrites pages the
//   ingest's rows live on (page 1, the schema, freed pages of an older analysis).
// Meanwhile a thread pushes the pages an earlier ingest left unsynced to the disk, so the
// checkpoint's sync of the database finds little left to wait for, and once this returns the
// ingest's rows are on disk, as they were when the mode switch synced them.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <thread>

#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

namespace {

// fdatasync of the database file on a thread of its own. The descriptor stays open until this
// is destroyed, after the connection: closing any descriptor of a file drops every fcntl lock the
// process holds on it, SQLite's included.
class BackgroundFlush {
 public:
  explicit BackgroundFlush(const std::string& path) {
    // O_NONBLOCK: a FIFO in the database's place must not block here (the connection refuses it).
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    struct stat st;
    if (fd_ < 0 || ::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return;
    thread_ = std::thread([fd = fd_] { ::fdatasync(fd); });
  }
  ~BackgroundFlush() {
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
  }
  BackgroundFlush(const BackgroundFlush&) = delete;
  BackgroundFlush& operator=(const BackgroundFlush&) = delete;

 private:
  int fd_ = -1;
  std::thread thread_;
};

// Back to a rollback journal, so the file is again one file that read-only users and copies see
// whole. The checkpoint syncs; the mode switch after it only rewrites the header. When a reader
// keeps the WAL in use the checkpoint stops short and the file stays in WAL mode, which is just
// as safe (the last connection to close checkpoints it, with the syncs).
void leave_wal(sqlite3* db) noexcept {
  try {
    Statement checkpoint(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    if (!checkpoint.step() || checkpoint.int64(0) != 0 || checkpoint.int64(1) != 0) return;
  } catch (const SqliteError&) {
    return;
  }
  sqlite3_exec(db, "PRAGMA synchronous=OFF; PRAGMA journal_mode=DELETE; PRAGMA synchronous=NORMAL",
               nullptr, nullptr, nullptr);
}

}  // namespace

AnalysisReport analyze_database(const std::string& path, const AnalysisOptions& options) {
  BackgroundFlush flush(path);
  Connection db(path, OpenMode::kReadWrite);
  sqlite3_busy_timeout(db.handle(), 5000);
  // The first write: it also refuses a file that is no database. The page cache and temp store of
  // apply_update_pragmas (schema.hpp), and its checkpoint interval; the syncs as explained above.
  db.exec(
      "PRAGMA synchronous=OFF; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
      "PRAGMA wal_autocheckpoint=4096; PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY;");
  AnalysisReport report = analyze(db.handle(), options);
  leave_wal(db.handle());
  return report;
}

}  // namespace tlscope::model::analysis
