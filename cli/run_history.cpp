#include "run_history.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace tlscope::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// run.json larger than this is not a run record (a planted file): skipped, never read whole.
constexpr std::uintmax_t kMaxRecordBytes = 1 << 20;

std::string absolute_env(const char* name) {
  const char* value = std::getenv(name);
  return value && value[0] == '/' ? std::string(value) : std::string();
}

// Creates `dir` 0700 when missing and checks it is a real folder of this user's, not open to
// others: another user's planted folder must not receive this user's traces.
bool private_folder(const std::string& dir, std::string& error) {
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    error = dir + ": cannot create: " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = dir + ": not a folder (a link or a file is refused)";
    return false;
  }
  if (st.st_uid != geteuid() || (st.st_mode & 0077) != 0) {
    error = dir + ": owned by another user or open to others; refused";
    return false;
  }
  return true;
}

// The output of `git -C cwd ARGS` (first line), run without a shell; "" when git fails.
std::string git_output(const std::string& cwd, std::vector<std::string> args, bool first_line) {
  int fds[2];
  if (pipe(fds) != 0) return "";
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return "";
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, STDERR_FILENO);
      dup2(null, STDIN_FILENO);
    }
    close(fds[0]);
    close(fds[1]);
    std::vector<std::string> full = {"git", "-C", cwd};
    full.insert(full.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : full) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp("git", argv.data());
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  // A status listing can be long; only whether it is empty matters, so reading stops early.
  while ((n = read(fds[0], buf, sizeof buf)) > 0 && out.size() < 65536) out.append(buf, n);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "";
  if (first_line) out = out.substr(0, out.find('\n'));
  return out.empty() && !first_line ? std::string("clean") : out;
}

json run_record_json(const RunRecord& r) {
  json j{{"id", r.id},
         {"started", r.started},
         {"seconds", r.seconds < 0 ? json(nullptr) : json(r.seconds)},
         {"exit_status", r.exit_status < 0 ? json(nullptr) : json(r.exit_status)},
         {"command", r.command},
         {"cwd", r.cwd},
         {"git_commit", r.git_commit.empty() ? json(nullptr) : json(r.git_commit)},
         {"git_dirty", r.git_dirty ? json(*r.git_dirty) : json(nullptr)},
         {"torch_version", r.torch_version.empty() ? json(nullptr) : json(r.torch_version)}};
  return j;
}

std::optional<RunRecord> read_record(const fs::path& dir) {
  std::error_code ec;
  const fs::path file = dir / "run.json";
  if (!fs::is_regular_file(fs::symlink_status(file, ec)) || fs::file_size(file, ec) > kMaxRecordBytes)
    return std::nullopt;
  std::ifstream in(file);
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  RunRecord r;
  try {
    r.id = j.value("id", "");
    if (r.id != dir.filename().string()) return std::nullopt;
    r.dir = dir.string();
    r.trace_dir = (dir / "trace").string();
    r.started = j.value("started", int64_t{0});
    if (j["seconds"].is_number()) r.seconds = j["seconds"].get<double>();
    if (j["exit_status"].is_number_integer()) r.exit_status = j["exit_status"].get<int>();
    for (const json& a : j.value("command", json::array()))
      if (a.is_string()) r.command.push_back(a.get<std::string>());
    r.cwd = j.value("cwd", "");
    if (j["git_commit"].is_string()) r.git_commit = j["git_commit"].get<std::string>();
    if (j["git_dirty"].is_boolean()) r.git_dirty = j["git_dirty"].get<bool>();
    if (j["torch_version"].is_string()) r.torch_version = j["torch_version"].get<std::string>();
  } catch (const json::exception&) {
    return std::nullopt;
  }
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) r.bytes += static_cast<int64_t>(it->file_size(ec));
  }
  return r;
}

}  // namespace

std::string runs_folder(std::string& error) {
  std::string data = absolute_env("XDG_DATA_HOME");
  if (data.empty()) {
    const std::string home = absolute_env("HOME");
    if (home.empty()) {
      error = "no runs folder: neither XDG_DATA_HOME nor HOME is an absolute path";
      return "";
    }
    data = home + "/.local/share";
  }
  std::error_code ec;
  fs::create_directories(data, ec);
  const std::string tlscope = data + "/tlscope", runs = tlscope + "/runs";
  if (!private_folder(tlscope, error) || !private_folder(runs, error)) return "";
  return runs;
}

std::optional<RunRecord> start_run(const std::vector<std::string>& command, std::string& error) {
  const std::string runs = runs_folder(error);
  if (runs.empty()) return std::nullopt;
  RunRecord r;
  r.started = static_cast<int64_t>(std::time(nullptr));
  std::tm tm{};
  const std::time_t now = static_cast<std::time_t>(r.started);
  gmtime_r(&now, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  r.id = std::string(stamp) + "-" + std::to_string(getpid());
  r.dir = runs + "/" + r.id;
  r.trace_dir = r.dir + "/trace";
  if (mkdir(r.dir.c_str(), 0700) != 0 || mkdir(r.trace_dir.c_str(), 0700) != 0) {
    error = r.dir + ": cannot create: " + std::strerror(errno);
    return std::nullopt;
  }
  r.command = command;
  std::unique_ptr<char, decltype(&free)> cwd(getcwd(nullptr, 0), &free);
  if (cwd) r.cwd = cwd.get();
  if (!r.cwd.empty()) {
    r.git_commit = git_output(r.cwd, {"rev-parse", "HEAD"}, true);
    if (!r.git_commit.empty()) {
      const std::string status =
          git_output(r.cwd, {"status", "--porcelain", "--untracked-files=no"}, false);
      if (!status.empty()) r.git_dirty = status != "clean";
    }
  }
  if (!save_run(r, error)) return std::nullopt;
  return r;
}

bool save_run(const RunRecord& run, std::string& error) {
  // Written beside and renamed: a reader never sees half a record.
  const std::string path = run.dir + "/run.json", partial = path + ".partial";
  int fd = open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = partial + ": " + std::strerror(errno);
    return false;
  }
  const std::string text = run_record_json(run).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = close(fd) == 0 && ok;
  if (!ok || rename(partial.c_str(), path.c_str()) != 0) {
    error = path + ": " + std::strerror(errno);
    unlink(partial.c_str());
    return false;
  }
  return true;
}

std::vector<RunRecord> list_runs() {
  std::vector<RunRecord> runs;
  std::string error;
  const std::string folder = runs_folder(error);
  if (folder.empty()) return runs;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
    if (auto r = read_record(it->path())) runs.push_back(std::move(*r));
  }
  std::sort(runs.begin(), runs.end(), [](const RunRecord& a, const RunRecord& b) {
    return a.started != b.started ? a.started > b.started : a.id > b.id;
  });
  return runs;
}

// A run id as start_run makes it: 8 digits, '-', 6 digits, '-', the pid.
bool looks_like_run_id(const std::string& s) {
  if (s.size() < 17 || s[8] != '-' || s[15] != '-') return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i != 8 && i != 15 && !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

std::optional<std::string> resolve_run_reference(const std::string& ref, std::string& error) {
  std::error_code ec;
  // A bare id counts only when no file of that name is there: a path always means the path.
  const bool bare_id = looks_like_run_id(ref) && !fs::exists(fs::symlink_status(ref, ec));
  if (!bare_id && (ref.size() < 2 || ref[0] != '@')) return std::nullopt;
  const std::string key = bare_id ? ref : ref.substr(1);
  std::vector<RunRecord> runs = list_runs();
  if (std::all_of(key.begin(), key.end(), ::isdigit) && key.size() < 6) {
    const size_t n = std::stoul(key);
    if (n >= 1 && n <= runs.size()) return runs[n - 1].trace_dir;
    error = ref + ": there are " + std::to_string(runs.size()) +
            " recorded run(s) (tlscope runs lists them; @1 is the newest)";
    return "";
  }
  for (const RunRecord& r : runs)
    if (r.id == key) return r.trace_dir;
  error = ref + ": no recorded run has that id (tlscope runs lists them)";
  return "";
}

void prune_runs(const std::string& keep) {
  std::vector<RunRecord> runs = list_runs();  // newest first
  int64_t total = 0;
  size_t kept = 0;
  for (const RunRecord& r : runs) {
    total += r.bytes;
    ++kept;
    if (r.dir == keep || (total <= kMaxRunBytes && kept <= kMaxRuns)) continue;
    std::error_code ec;
    fs::remove_all(r.dir, ec);
    total -= r.bytes;
    --kept;
  }
}

}  // namespace tlscope::cli
