// Shared helpers of the rage tests: scratch folders, running commands (tar, the tlscope binary),
// and writing small synthetic TORCH_TRACE logs with correct has_payload digests.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "tlscope/parser/md5.hpp"

namespace rage_test {

namespace fs = std::filesystem;

inline const std::string kLogs = TLSCOPE_SHARED_LOGS;
inline const std::string kTlscope = std::string(TLSCOPE_BINARY_DIR) + "/cli/tlscope";
// A real two-rank run whose rank logs the tests copy and re-time.
inline const std::string kSchedule = kLogs + "/multi_rank_schedule/";
inline const std::string kRank0 = kSchedule + "dedicated_log_torch_trace_rank_0_6u3fubwl.log";
inline const std::string kRank1 = kSchedule + "dedicated_log_torch_trace_rank_1_n8zycf07.log";

// Wall-clock seconds (timegm-style) of 2026-11-28 hh:mm:ss.
inline time_t wall(int h, int m, int s) {
  struct tm tm {};
  tm.tm_year = 2026 - 1900;
  tm.tm_mon = 10;
  tm.tm_mday = 28;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = s;
  return timegm(&tm);
}

inline fs::path scratch(const std::string& name) {
  return tlscope::test::fresh_scratch("rage_scratch", name);
}
using tlscope::test::slurp;
using tlscope::test::spit;

inline std::string q(const std::string& s) {
  return "'" + s + "'";
}

struct Run {
  int exit_code = -1;
  std::string out, err;
};

// Runs a shell command line with stdout/stderr captured in `dir`.
inline Run sh(const fs::path& dir, const std::string& command) {
  fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  std::string cmd = "(" + command + ") >" + q(out.string()) + " 2>" + q(err.string());
  int status = std::system(cmd.c_str());
  Run r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Local wall-clock "2026-11-28 10:00:00" -> epoch seconds (so localtime() gives it back).
inline time_t local_time(int year, int month, int day, int h, int m, int s) {
  struct tm tm {};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = s;
  tm.tm_isdst = -1;
  return mktime(&tm);
}

inline void set_mtime(const fs::path& p, time_t t) {
  struct timespec times[2] = {{t, 0}, {t, 0}};
  utimensat(AT_FDCWD, p.c_str(), times, 0);
}

// Rewrites the header time of every record line of a real log so that its first record is at
// `first` (wall-clock seconds, as timegm counts them) and the gaps between records are kept.
inline std::string retime(const std::string& text, time_t first) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  long long delta = 0;
  bool have_delta = false;
  while (std::getline(in, line)) {
    if (line.size() > 21 && line[0] == 'V' && line[5] == ' ' && line[8] == ':') {
      struct tm tm {};
      tm.tm_year = 2026 - 1900;
      tm.tm_mon = std::stoi(line.substr(1, 2)) - 1;
      tm.tm_mday = std::stoi(line.substr(3, 2));
      tm.tm_hour = std::stoi(line.substr(6, 2));
      tm.tm_min = std::stoi(line.substr(9, 2));
      tm.tm_sec = std::stoi(line.substr(12, 2));
      time_t t = timegm(&tm);
      if (!have_delta) {
        delta = static_cast<long long>(first) - t;
        have_delta = true;
      }
      time_t shifted = static_cast<time_t>(t + delta);
      struct tm o {};
      gmtime_r(&shifted, &o);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%02d%02d %02d:%02d:%02d", o.tm_mon + 1, o.tm_mday, o.tm_hour,
                    o.tm_min, o.tm_sec);
      line.replace(1, 13, buf);
    }
    out += line;
    out += '\n';
  }
  return out;
}

// One record with a payload, its has_payload computed from the payload lines.
inline std::string record(const std::string& header_prefix, const std::string& envelope_without_md5,
                          const std::vector<std::string>& payload) {
  std::string joined;
  for (size_t i = 0; i < payload.size(); ++i) joined += (i ? "\n" : "") + payload[i];
  std::string env = envelope_without_md5;
  env.pop_back();  // the closing brace
  env += ", \"has_payload\": \"" + tlscope::parser::Md5::hex_of(joined) + "\"}";
  std::string out = header_prefix + " " + env + "\n";
  for (const auto& l : payload) out += "\t" + l + "\n";
  return out;
}

// Number of non-blank lines that are not payload lines: the records tlscope stores as events.
inline long long record_lines(const std::string& text) {
  long long n = 0;
  for (const auto& l : lines_of(text)) n += !l.empty() && l[0] != '\t';
  return n;
}

// All regular files under `dir`.
inline std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(e.path());
  return out;
}

}  // namespace rage_test
