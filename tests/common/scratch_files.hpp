// File helpers shared by the suites that drive the built binaries: fresh scratch folders under the
// build tree, and whole-file reads and writes.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tlscope::test {

// A fresh, empty folder `<build>/<area>/<name>` (whatever an earlier run left there is removed).
inline std::filesystem::path fresh_scratch(const std::string& area, const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(TLSCOPE_BINARY_DIR) / area / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

}  // namespace tlscope::test
