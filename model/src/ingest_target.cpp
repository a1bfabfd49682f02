// Fresh databases under a temporary name, appends through WAL (see ingest_target.hpp).
#include "ingest_target.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "tlscope/model/schema.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::model {
namespace {

namespace fs = std::filesystem;

constexpr const char* kIngestTempInfix = ".ingest-";
constexpr size_t kSqliteMaxPath = 512;  // the unix VFS's mxPathname

std::string errno_text() {
  return std::strerror(errno);
}

// A database "path" SQLite gives a meaning of its own: nothing on disk to rename or lock.
bool is_special(const std::string& path) {
  return path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0;
}

std::string random_suffix() {
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 8; ++i) s += kChars[rd() % (sizeof kChars - 1)];
  return s;
}

// Temporary databases left by ingests that were killed: nobody holds their lock any more. A file
// still empty may have just been created by an ingest that has not locked it yet: left alone.
std::vector<std::string> remove_leftovers(const std::string& db_path) {
  std::vector<std::string> removed;
  fs::path db(db_path);
  fs::path dir = db.has_parent_path() ? db.parent_path() : fs::path(".");
  std::string prefix = db.filename().string() + kIngestTempInfix;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    int fd = ::open(it->path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st;
    bool stale = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
                 ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    if (stale && ::unlink(it->path().c_str()) == 0) removed.push_back(it->path().string());
    ::close(fd);
  }
  return removed;
}

}  // namespace

IngestTarget::IngestTarget(std::string db_path) : db_path_(std::move(db_path)) {
  if (is_special(db_path_)) return;  // in memory: written in place, nothing to protect
  struct stat st;
  if (::stat(db_path_.c_str(), &st) == 0) {
    // A FIFO or device would block or stream forever; a directory is no database either.
    if (!S_ISREG(st.st_mode)) {
      throw SqliteError(db_path_ + ": not a regular file, so not a database");
    }
    // Append. The lock is held on a descriptor of its own, closed only after SQLite's connection
    // (closing any descriptor of a file drops the process's fcntl locks on it, SQLite's too).
    lock_fd_ = ::open(db_path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (lock_fd_ < 0) throw SqliteError(db_path_ + ": cannot open: " + errno_text());
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(lock_fd_);
      lock_fd_ = -1;
      throw SqliteError(db_path_ +
                        ": another tlscope ingest is writing this database; try again when it "
                        "has finished");
    }
    return;
  }
  fresh_ = true;
  // SQLite's unix VFS opens absolute paths of at most 512 bytes: a longer one fails deep inside
  // with a message naming the temporary. Said here, naming the user's path.
  const std::string absolute = parser::resolved_path(db_path_);
  if (absolute.size() + std::strlen(kIngestTempInfix) + 8 + 4 >= kSqliteMaxPath)
    throw SqliteError(db_path_ + ": the path is " + std::to_string(absolute.size()) +
                      " bytes long; SQLite opens database paths of at most " +
                      std::to_string(kSqliteMaxPath - std::strlen(kIngestTempInfix) - 13) +
                      " bytes here: choose a shorter path");
  removed_ = remove_leftovers(db_path_);
  for (int attempt = 0; attempt < 16 && lock_fd_ < 0; ++attempt) {
    temp_path_ = db_path_ + kIngestTempInfix + random_suffix();
    lock_fd_ = ::open(temp_path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (lock_fd_ < 0 && errno != EEXIST) break;
  }
  if (lock_fd_ < 0) {
    throw SqliteError(db_path_ + ": cannot create a temporary database beside it (" + temp_path_ +
                      "): " + errno_text());
  }
  ::flock(lock_fd_, LOCK_EX);  // uncontended: the file is new and ours alone
}

IngestTarget::~IngestTarget() {
  if (fresh_ && !published_) ::unlink(temp_path_.c_str());
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void IngestTarget::write_initial_image(const std::string& image) const {
  // Through the descriptor that holds the lock: the file is new and empty, and ours alone.
  for (size_t done = 0; done < image.size();) {
    ssize_t n =
        ::pwrite(lock_fd_, image.data() + done, image.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw SqliteError(temp_path_ + ": cannot write the new database: " + errno_text());
    done += static_cast<size_t>(n);
  }
}

void IngestTarget::apply_pragmas(Connection& db) const {
  if (fresh_ || is_special(db_path_)) {
    apply_bulk_load_pragmas(db);
  } else {
    apply_update_pragmas(db);
  }
}

void IngestTarget::publish() {
  if (!fresh_ || published_) return;
  // RENAME_NOREPLACE: a database another process created at that path meanwhile is kept, not
  // silently replaced. Filesystems without it get link + unlink, which never replaces either.
  int rc = ::renameat2(AT_FDCWD, temp_path_.c_str(), AT_FDCWD, db_path_.c_str(), RENAME_NOREPLACE);
  if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {
    rc = ::link(temp_path_.c_str(), db_path_.c_str());
    if (rc == 0) ::unlink(temp_path_.c_str());
  }
  if (rc != 0) {
    std::string why = errno == EEXIST
                          ? "another process created it while this ingest ran; nothing of this "
                            "run was kept: ingest again to add to it"
                          : "cannot move the new database into place: " + errno_text();
    throw SqliteError(db_path_ + ": " + why);
  }
  published_ = true;
}

}  // namespace tlscope::model
