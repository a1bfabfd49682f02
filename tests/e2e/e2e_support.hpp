// Shared helpers of the end-to-end tests: run the built tlscope binary, read its database, and
// count what a log holds independently of tlscope's parser.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "tlscope/model/sqlite.hpp"

namespace e2e {

namespace fs = std::filesystem;

inline const std::string kLogs = TLSCOPE_SHARED_LOGS;
inline const std::string kTlscope = std::string(TLSCOPE_BINARY_DIR) + "/cli/tlscope";

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

// A fresh scratch directory per test.
inline fs::path scratch(const std::string& name) {
  return tlscope::test::fresh_scratch("e2e_scratch", name);
}
using tlscope::test::slurp;

// Runs `tlscope <args>` through the shell (args are already quoted as needed). `redirects` go
// after the output's (e.g. "<&-" closes standard input); `timeout_s` > 0 stops a hang.
inline RunResult run_tlscope(const fs::path& dir, const std::string& args,
                             const std::string& redirects = "", int timeout_s = 0) {
  fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  std::string cmd = (timeout_s > 0 ? "timeout -k 5 " + std::to_string(timeout_s) + " " : "") + "'" +
                    kTlscope + "' " + args + " >'" + out.string() + "' 2>'" + err.string() + "' " +
                    redirects;
  int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

inline std::string q(const std::string& s) {
  return "'" + s + "'";
}

// Per event key, how many envelope lines a log has: a line that is neither blank nor a TAB
// payload line, whose JSON starts after "] " with {"<key>".
inline std::map<std::string, int64_t> envelope_kinds(const std::string& path) {
  std::map<std::string, int64_t> kinds;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '\t') continue;
    auto at = line.find("] {\"");
    if (at == std::string::npos) continue;
    auto start = at + 4;
    auto end = line.find('"', start);
    kinds[line.substr(start, end - start)]++;
  }
  return kinds;
}

// Lines as `wc -l` counts them, plus a last line without its newline.
inline int64_t line_count(const std::string& path) {
  std::string text = slurp(path);
  int64_t n = 0;
  for (char c : text) n += c == '\n';
  if (!text.empty() && text.back() != '\n') ++n;
  return n;
}

inline std::vector<std::string> all_logs() {
  std::vector<std::string> logs;
  for (const char* dir : {"", "multi_rank_logs", "multi_rank_schedule"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(kLogs) / dir)) {
      if (entry.path().extension() == ".log") logs.push_back(entry.path().string());
    }
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

inline int64_t scalar(tlscope::model::Connection& db, const std::string& sql) {
  return db.scalar_int(sql).value_or(-1);
}

inline std::string text(tlscope::model::Connection& db, const std::string& sql) {
  tlscope::model::Statement s = db.prepare(sql);
  if (!s.step() || s.is_null(0)) return "NULL";
  return s.text(0);
}

inline std::map<std::string, int64_t> db_kinds(tlscope::model::Connection& db, int64_t file_id) {
  std::map<std::string, int64_t> kinds;
  tlscope::model::Statement s =
      db.prepare("SELECT kind, count(*) FROM events WHERE file_id = ? GROUP BY kind");
  s.bind(1, file_id);
  while (s.step()) kinds[s.text(0)] = s.int64(1);
  return kinds;
}

}  // namespace e2e
