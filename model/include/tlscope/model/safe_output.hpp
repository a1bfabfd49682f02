// The one way tlscope puts a file or a folder on disk (docs/security.md, "What tlscope writes").
//
// Every output is built where nobody else can reach it and then renamed into place:
// - a file is written into a new temporary file beside its target (mkstemp: O_CREAT|O_EXCL,
//   0600, a name nobody can predict), synced and renamed over the target. A symlink planted at
//   the target is replaced, never written through; the target holds either the old or the new
//   content, whole.
// - a folder (the report) is built inside a fresh private folder beside its target (mkdtemp,
//   0700), whose files are created O_EXCL|O_NOFOLLOW, and then swapped with the old folder in one
//   renameat2(RENAME_EXCHANGE); the old one is removed only after the swap.
// Each temporary holds an flock for as long as its writer runs, so the clean-up of leftovers
// (`remove_stale_temporaries`) removes only what no live process holds, whatever its pid
// namespace, and only entries owned by this user.
//
// A write that fails (a full disk, a file past `ulimit -f`) is an error naming the target, and
// leaves nothing behind: SIGXFSZ is ignored (ignore_file_size_signal) so that write(2) returns
// EFBIG instead of the signal killing tlscope with the temporary in place.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <string_view>

namespace tlscope::model {

// SIGXFSZ ignored: past RLIMIT_FSIZE a write fails with EFBIG. Called once at start-up.
void ignore_file_size_signal();

// "No space left on device (the disk is full)"-style text for errno `err`.
std::string write_error_text(int err);

// Writes all of `data` to `fd` (EINTR retried); false with errno set on failure.
bool write_all(int fd, std::string_view data);

// A new file at `path`, O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC with `mode`: -1 (errno set)
// when anything, a symlink included, is already there.
int create_new_file(const std::string& path, mode_t mode = 0644);

// The prefix of every temporary beside `target`: ".<name>.tlscope-tmp-".
std::string temporary_prefix(const std::string& target);

// Removes the temporaries beside `target` left by killed tlscope processes: entries named with
// temporary_prefix(target), owned by this user, whose lock nobody holds. Folders are removed
// whole without following links. Best effort.
void remove_stale_temporaries(const std::string& target);

// A file replaced atomically. open() makes the temporary; write() appends; commit() syncs it,
// gives it `mode` (less the umask) and renames it over the target. Destroyed uncommitted, the
// temporary is removed.
class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // "" or why not (naming the target).
  std::string open(const std::string& target, mode_t mode = 0644);
  bool write(std::string_view data);  // false: error() says why
  std::string commit();               // "" or why not; the temporary is gone either way
  void abandon();                     // removes the temporary
  int fd() const { return fd_; }
  const std::string& temp_path() const { return temp_; }
  const std::string& error() const { return error_; }

 private:
  std::string target_, temp_, error_;
  mode_t mode_ = 0644;
  int fd_ = -1;
};

// `content` into `target` through an AtomicFile: "" or why not.
std::string write_file_atomically(const std::string& target, std::string_view content,
                                  mode_t mode = 0644);

// A folder built privately and swapped in whole.
class PrivateFolder {
 public:
  PrivateFolder() = default;
  ~PrivateFolder();
  PrivateFolder(const PrivateFolder&) = delete;
  PrivateFolder& operator=(const PrivateFolder&) = delete;

  // Makes the private folder beside `target` (after removing stale temporaries): "" or why not.
  std::string create(const std::string& target);
  const std::string& path() const { return path_; }
  // Puts the folder at the target: renamed when there is none, else exchanged with the existing
  // folder in one step (the old one is removed afterwards) once `may_replace` returns "" (it is
  // asked again there, so a folder another process put at the target meanwhile is checked too).
  // The folder gets `mode` (less the umask). "" or why not.
  std::string publish(mode_t mode, const std::function<std::string()>& may_replace);

 private:
  std::string target_, path_;
  int lock_fd_ = -1;
  bool published_ = false;
};

// Checks that `dir` is a folder this user owns, not a symlink, not writable by others; creates it
// 0700 (its missing parents too) when it does not exist. "" or why not, naming `dir`.
std::string ensure_private_folder(const std::string& dir);

// Where tlscope keeps per-user state of `kind` ("cache", "state", "data", "config"):
// $XDG_<KIND>_HOME/tlscope when that is absolute, else
// <home>/.cache|.local/state|.local/share|.config/tlscope
// with home $HOME when absolute, else the password database's home of this user. "" when none
// is known (a relative value counts as unset; nothing falls back to a shared /tmp).
std::string user_folder(std::string_view kind);

// `path` as the kernel resolves it (realpath): symlinks followed, then `..`; a path that does not
// exist resolves its existing parent and keeps the rest. The input itself when nothing resolves.
std::string resolved_path(const std::string& path);

}  // namespace tlscope::model
