// See scratch_dir.hpp. Inside the handler only async-signal-safe calls are made: openat,
// getdents64 (through syscall), unlinkat, close, sigaction, raise.
#include "scratch_dir.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tlscope::exporters::rage {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

char g_dir[PATH_MAX];  // absolute path of the armed scratch folder
volatile sig_atomic_t g_armed = 0;
struct sigaction g_previous[3];

// The records getdents64 fills (linux_dirent64): inode (8 bytes), offset (8), record length (2),
// type (1), then the NUL-terminated name. Read by offset, not through a struct with a one-byte
// name array.
constexpr size_t kRecordLengthAt = 16, kNameAt = 19;

bool is_dot(const char* name) {
  return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

// Removes `name` under `dirfd`, a file or a whole folder. The folder is read again after each
// pass because removing entries while reading may hide some from the current pass.
void remove_tree_at(int dirfd, const char* name, int depth) {
  if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM) || depth > 16) return;
  int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[4096];
  for (int pass = 0; pass < 8; ++pass) {
    bool removed_any = false;
    lseek(fd, 0, SEEK_SET);
    for (long n; (n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;) {
      for (long off = 0; off < n;) {
        unsigned short length = 0;
        std::memcpy(&length, buf + off + kRecordLengthAt, sizeof length);
        const char* name = buf + off + kNameAt;
        off += length;
        if (length == 0) break;
        if (is_dot(name)) continue;
        remove_tree_at(fd, name, depth + 1);
        removed_any = true;
      }
    }
    if (!removed_any) break;
  }
  close(fd);
  unlinkat(dirfd, name, AT_REMOVEDIR);
}

void on_signal(int sig) {
  if (g_armed) {
    g_armed = 0;
    remove_tree_at(AT_FDCWD, g_dir, 0);
  }
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  raise(sig);
}

}  // namespace

bool ScratchDir::create(const std::string& prefix, std::string& error) {
  std::string pattern = prefix + "XXXXXX";
  if (!mkdtemp(pattern.data())) {
    error = std::filesystem::path(prefix).parent_path().string() +
            ": cannot write here: " + std::strerror(errno);
    return false;
  }
  dir_ = std::filesystem::absolute(pattern);
  std::string dir = dir_.string();
  if (dir.size() < sizeof g_dir && !g_armed) {
    std::memcpy(g_dir, dir.c_str(), dir.size() + 1);
    g_armed = 1;
    armed_ = true;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    for (int s : kSignals) sigaddset(&action.sa_mask, s);  // one cleanup at a time
    for (size_t i = 0; i < std::size(kSignals); ++i) {
      sigaction(kSignals[i], nullptr, &g_previous[i]);
      // A signal the caller ignores (nohup's SIGHUP) stays ignored.
      if (g_previous[i].sa_handler != SIG_IGN) sigaction(kSignals[i], &action, nullptr);
    }
  }
  return true;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  if (armed_) {
    g_armed = 0;
    for (size_t i = 0; i < std::size(kSignals); ++i)
      sigaction(kSignals[i], &g_previous[i], nullptr);
  }
}

}  // namespace tlscope::exporters::rage
