// See safe_output.hpp.
#include "tlscope/model/safe_output.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tlscope/parser/reader.hpp"

namespace tlscope::model {
namespace {

namespace fs = std::filesystem;

constexpr const char* kOutputTempInfix = ".tlscope-tmp-";
// Inside a private folder: held locked by its writer, so a clean-up can tell a live one.
constexpr const char* kFolderLock = ".tlscope-lock";

// The file mode creation mask, read without changing it (umask(2) would, for every thread).
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

fs::path without_trailing_slash(const std::string& target) {
  std::string t = target;
  while (t.size() > 1 && t.back() == '/') t.pop_back();
  return fs::path(t);
}

fs::path parent_of(const fs::path& target) {
  return target.has_parent_path() ? target.parent_path() : fs::path(".");
}

// ".<name>.tlscope-tmp-" (appended piecewise: GCC 12 warns on "literal" + string, bug 105329).
std::string temporary_name_prefix(const fs::path& target) {
  std::string prefix = ".";
  prefix += target.filename().string();
  prefix += kOutputTempInfix;
  return prefix;
}

// True when `fd` (an entry's lock) is held by no process: flock is on the open file, so a live
// writer in any pid namespace holds it.
bool unheld(int fd) {
  return ::flock(fd, LOCK_EX | LOCK_NB) == 0;
}

// Changed in the last seconds: maybe made by a writer that has not taken its lock yet.
bool young(const struct stat& st) {
  return ::time(nullptr) - st.st_mtime < 10;
}

void remove_stale_entry(const fs::path& entry) {
  struct stat st {};
  if (::lstat(entry.c_str(), &st) != 0 || st.st_uid != ::geteuid()) return;
  if (S_ISREG(st.st_mode)) {
    int fd = ::open(entry.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    if (!young(st) && unheld(fd)) ::unlink(entry.c_str());
    ::close(fd);
  } else if (S_ISDIR(st.st_mode)) {
    int fd = ::open((entry / kFolderLock).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;  // no lock file: not provably a tlscope temporary
    struct stat lock {};
    if (!young(st) && ::fstat(fd, &lock) == 0 && S_ISREG(lock.st_mode) &&
        lock.st_uid == ::geteuid() && unheld(fd)) {
      std::error_code ec;
      fs::remove_all(entry, ec);  // removes links, never what they point to
    }
    ::close(fd);
  }
}

}  // namespace

void ignore_file_size_signal() {
  ::signal(SIGXFSZ, SIG_IGN);
}

std::string write_error_text(int err) {
  if (err == ENOSPC) return "no space left on device (the disk is full)";
  if (err == EFBIG) return "file too large (past the file size limit, ulimit -f)";
  if (err == EDQUOT) return "disk quota exceeded";
  return std::strerror(err);
}

bool write_all(int fd, std::string_view data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) {
      errno = ENOSPC;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

int create_new_file(const std::string& path, mode_t mode) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

std::string temporary_prefix(const std::string& target) {
  fs::path t = without_trailing_slash(target);
  return (parent_of(t) / temporary_name_prefix(t)).string();
}

void remove_stale_temporaries(const std::string& target) {
  fs::path t = without_trailing_slash(target);
  std::string prefix = temporary_name_prefix(t);
  DIR* dir = ::opendir(parent_of(t).c_str());
  if (!dir) return;
  while (dirent* e = ::readdir(dir)) {
    if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) == 0)
      remove_stale_entry(parent_of(t) / e->d_name);
  }
  ::closedir(dir);
}

AtomicFile::~AtomicFile() {
  abandon();
}

std::string AtomicFile::open(const std::string& target, mode_t mode) {
  abandon();
  target_ = target;
  mode_ = mode;
  remove_stale_temporaries(target);
  std::string pattern = temporary_prefix(target) + "XXXXXX";
  fd_ = ::mkostemp(pattern.data(), O_CLOEXEC);
  if (fd_ < 0) {
    error_ = target + ": cannot create a temporary file beside it: " + write_error_text(errno);
    return error_;
  }
  temp_ = pattern;
  ::flock(fd_, LOCK_EX);  // a clean-up by another process leaves it alone while we write
  error_.clear();
  return {};
}

bool AtomicFile::write(std::string_view data) {
  if (fd_ < 0) return false;
  if (!write_all(fd_, data)) {
    if (error_.empty()) error_ = target_ + ": cannot write: " + write_error_text(errno);
    return false;
  }
  return true;
}

std::string AtomicFile::commit() {
  if (fd_ < 0) return error_.empty() ? target_ + ": not open" : error_;
  if (error_.empty() && ::fsync(fd_) != 0)
    error_ = target_ + ": cannot write: " + write_error_text(errno);
  if (error_.empty() && ::fchmod(fd_, mode_ & ~current_umask()) != 0)
    error_ = target_ + ": " + std::strerror(errno);
  // rename(2) replaces whatever is at the target, a symlink included, and never writes through it.
  if (error_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0)
    error_ = target_ + ": cannot put the file in place: " + std::strerror(errno);
  else if (error_.empty())
    temp_.clear();
  std::string why = error_;
  abandon();
  return why;
}

void AtomicFile::abandon() {
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string write_file_atomically(const std::string& target, std::string_view content,
                                  mode_t mode) {
  AtomicFile file;
  if (std::string why = file.open(target, mode); !why.empty()) return why;
  file.write(content);
  return file.commit();
}

PrivateFolder::~PrivateFolder() {
  if (!path_.empty() && !published_) {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

std::string PrivateFolder::create(const std::string& target) {
  target_ = without_trailing_slash(target).string();
  remove_stale_temporaries(target_);
  std::string pattern = temporary_prefix(target_) + "XXXXXX";
  if (!::mkdtemp(pattern.data()))  // 0700, a name nobody could predict
    return target_ + ": cannot create a private folder beside it: " + write_error_text(errno);
  path_ = pattern;
  lock_fd_ = create_new_file(path_ + "/" + kFolderLock, 0600);
  if (lock_fd_ < 0) return path_ + ": " + write_error_text(errno);
  ::flock(lock_fd_, LOCK_EX);
  return {};
}

std::string PrivateFolder::publish(mode_t mode, const std::function<std::string()>& may_replace) {
  if (path_.empty()) return target_ + ": no folder to publish";
  ::chmod(path_.c_str(), mode & ~current_umask());
  // A new target: RENAME_NOREPLACE, so a folder someone made meanwhile is not replaced unseen.
  if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) == 0) {
    published_ = true;
    return {};
  }
  if (errno != EEXIST)
    return target_ + ": cannot put the new folder in place: " + std::strerror(errno);
  if (std::string why = may_replace ? may_replace() : std::string(); !why.empty())
    return target_ + ": " + why;
  // An existing folder: swapped in one step, so the target is always one whole folder.
  if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0)
    return target_ + ": cannot put the new folder in place: " + std::strerror(errno);
  published_ = true;
  std::error_code ec;
  fs::remove_all(path_, ec);  // the old folder, now under the temporary name
  return {};
}

std::string ensure_private_folder(const std::string& dir) {
  if (dir.empty() || dir[0] != '/') return dir + ": not an absolute path";
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) return dir + ": " + std::strerror(errno);
    // The missing parents (~/.cache, ~/.local/state) are made this user's only, like the folder,
    // and only inside a folder this user or the system (root) owns: never inside another user's
    // folder, which root could otherwise write into unseen (XDG_CACHE_HOME=/home/them/cache).
    std::string prefix, parent = "/";
    for (const fs::path& part : fs::path(dir)) {
      if (part == "/") continue;
      prefix += '/';
      prefix += part.string();
      struct stat existing {};
      if (::lstat(prefix.c_str(), &existing) != 0) {
        struct stat above {};
        if (::stat(parent.c_str(), &above) == 0 && above.st_uid != ::geteuid() && above.st_uid != 0)
          return dir + ": " + parent + " is owned by another user (uid " +
                 std::to_string(above.st_uid) + "); refused";
        if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
          return dir + ": cannot create: " + std::strerror(errno);
      }
      parent = prefix;
    }
    if (::lstat(dir.c_str(), &st) != 0) return dir + ": " + std::strerror(errno);
  }
  if (S_ISLNK(st.st_mode))
    return dir + ": is a symbolic link; refused (tlscope keeps its state in a folder of its own)";
  if (!S_ISDIR(st.st_mode)) return dir + ": is not a folder";
  if (st.st_uid != ::geteuid())
    return dir + ": is owned by another user (uid " + std::to_string(st.st_uid) + "); refused";
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return dir + ": is writable by other users; refused (chmod go-w it, or remove it)";
  return {};
}

std::string user_folder(std::string_view kind) {
  std::string upper, fallback;
  if (kind == "cache") {
    upper = "XDG_CACHE_HOME";
    fallback = ".cache";
  } else if (kind == "state") {
    upper = "XDG_STATE_HOME";
    fallback = ".local/state";
  } else if (kind == "data") {
    upper = "XDG_DATA_HOME";
    fallback = ".local/share";
  } else {
    upper = "XDG_CONFIG_HOME";
    fallback = ".config";
  }
  const char* xdg = std::getenv(upper.c_str());
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/tlscope";
  std::string home;
  if (const char* h = std::getenv("HOME"); h && h[0] == '/') {
    home = h;
  } else {
    // HOME unset or relative: the password database's home, never a folder shared with others.
    struct passwd pw {
    }, *found = nullptr;
    char buf[4096];
    if (::getpwuid_r(::geteuid(), &pw, buf, sizeof buf, &found) == 0 && found && pw.pw_dir &&
        pw.pw_dir[0] == '/')
      home = pw.pw_dir;
  }
  if (home.empty() || home == "/") return {};
  return home + "/" + fallback + "/tlscope";
}

std::string resolved_path(const std::string& path) {
  return parser::resolved_path(path);
}

}  // namespace tlscope::model
