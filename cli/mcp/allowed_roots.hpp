// The folders an MCP client may read runs from (`tlscope mcp --root DIR`, repeatable). An agent
// names paths it was told about by a prompt, which may be hostile: every path is resolved by the
// file system (links, `..`) before it is compared, so a link inside a root that points out of it
// is refused like the path it points to.
#pragma once

#include <string>
#include <vector>

namespace tlscope::cli::mcp {

class AllowedRoots {
 public:
  // Each root is resolved once, now; a root that does not exist is left out and named in
  // problems().
  explicit AllowedRoots(const std::vector<std::string>& roots);

  // The resolved path of `path` when it and, for a folder, every file below it that a reading
  // command would open, lie inside a root; otherwise "" with `why` set to a sentence for the
  // client. Relative paths are taken from the first root, not from the server's working folder.
  std::string admit(const std::string& path, std::string& why) const;

  const std::vector<std::string>& roots() const { return roots_; }
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  bool inside(const std::string& resolved) const;
  std::vector<std::string> roots_;  // realpath()ed, without a trailing slash ("/" kept)
  std::vector<std::string> problems_;
};

}  // namespace tlscope::cli::mcp
