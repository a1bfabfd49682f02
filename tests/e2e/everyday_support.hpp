// Helpers of the everyday-use tests: run shell command lines as a user types them, in a scratch
// folder with its own cache and state folders (XDG_CACHE_HOME, XDG_STATE_HOME), so the tests never
// read or write the real user's.
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "e2e_support.hpp"

namespace e2e {

inline const std::string kSample =
    std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";

// `line` run by sh in `dir`, with dir/cache and dir/state as the XDG cache and state homes.
inline RunResult run_line(const fs::path& dir, const std::string& line,
                          const std::string& extra_env = "") {
  fs::path out = dir / ".stdout", err = dir / ".stderr";
  std::string cmd = "cd " + q(dir.string()) +
                    " && export XDG_CACHE_HOME=" + q((dir / "cache").string()) +
                    " XDG_STATE_HOME=" + q((dir / "state").string()) + " " + extra_env + " && ( " +
                    line + "\n) >" + q(out.string()) + " 2>" + q(err.string());
  int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// `tlscope ARGS` (ARGS quoted as needed) through run_line.
inline RunResult tlscope_in(const fs::path& dir, const std::string& args,
                            const std::string& extra_env = "") {
  return run_line(dir, q(kTlscope) + " " + args, extra_env);
}

inline std::vector<fs::path> files_in(const fs::path& dir, const std::string& suffix = "") {
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      found.push_back(it->path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Writes one sample scenario's logs into `dir` (tlscope-sample honours --out like TORCH_TRACE).
inline void write_sample_logs(const fs::path& dir, const std::string& scenario = "graph-breaks") {
  std::string cmd = q(kSample) + " " + scenario + " --out " + q(dir.string()) + " >/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
}

}  // namespace e2e
