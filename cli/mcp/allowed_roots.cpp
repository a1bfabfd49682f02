#include "allowed_roots.hpp"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <memory>

namespace tlscope::cli::mcp {
namespace {

struct CloseDir {
  void operator()(DIR* d) const { closedir(d); }
};

std::string real_path(const std::string& path) {
  std::unique_ptr<char, decltype(&free)> resolved(realpath(path.c_str(), nullptr), &free);
  return resolved ? std::string(resolved.get()) : std::string();
}

// Files of a rank directory past this many are not checked one by one: a folder that large is
// refused instead of making every request walk it.
constexpr size_t kMaxFolderEntries = 200000;

}  // namespace

AllowedRoots::AllowedRoots(const std::vector<std::string>& roots) {
  for (const std::string& root : roots) {
    std::string resolved = real_path(root);
    struct stat st {};
    if (resolved.empty() || stat(resolved.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      problems_.push_back(root + ": not a folder that exists");
      continue;
    }
    if (resolved.size() > 1 && resolved.back() == '/') resolved.pop_back();
    roots_.push_back(resolved);
  }
}

bool AllowedRoots::inside(const std::string& resolved) const {
  for (const std::string& root : roots_) {
    if (root == "/") return true;
    if (resolved == root) return true;
    if (resolved.size() > root.size() && resolved.compare(0, root.size(), root) == 0 &&
        resolved[root.size()] == '/')
      return true;
  }
  return false;
}

std::string AllowedRoots::admit(const std::string& path, std::string& why) const {
  if (roots_.empty()) {
    why = "no folder is allowed: start the server with --root DIR";
    return "";
  }
  if (path.empty() || path.find('\0') != std::string::npos) {
    why = "an empty path names no run";
    return "";
  }
  const std::string named = path[0] == '/' ? path : roots_.front() + "/" + path;
  const std::string resolved = real_path(named);
  if (resolved.empty()) {
    why = path + ": no such file or folder";
    return "";
  }
  if (!inside(resolved)) {
    why = path + ": outside the folders this server may read (--root)";
    return "";
  }
  struct stat st {};
  if (stat(resolved.c_str(), &st) != 0) {
    why = path + ": cannot be read";
    return "";
  }
  if (S_ISDIR(st.st_mode)) {
    // A rank directory is read file by file: a link in it that leaves the roots is refused too.
    std::unique_ptr<DIR, CloseDir> dir(opendir(resolved.c_str()));
    if (!dir) {
      why = path + ": folder cannot be listed";
      return "";
    }
    size_t entries = 0;
    while (dirent* e = readdir(dir.get())) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (++entries > kMaxFolderEntries) {
        why = path + ": more than 200,000 entries; name a smaller folder";
        return "";
      }
      const std::string inner = real_path(resolved + "/" + name);
      if (!inner.empty() && !inside(inner)) {
        why = path + "/" + name + ": links outside the folders this server may read (--root)";
        return "";
      }
    }
  } else if (!S_ISREG(st.st_mode)) {
    why = path + ": not a regular file or folder";
    return "";
  }
  return resolved;
}

}  // namespace tlscope::cli::mcp
