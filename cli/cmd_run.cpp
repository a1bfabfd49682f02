// `tlscope run [-o DIR] [--open] [--keep-trace DIR] -- CMD ARGS...`: from a program to a report in
// one step. Runs CMD with TORCH_TRACE set to a fresh folder (PyTorch and tlscope-sample honour
// it), its stdout and stderr passed straight through, then ingests and analyses the logs into
// DIR/tlscope.db, prints the summary, writes the report into DIR, and exits with CMD's own status
// (128 + the signal when a signal ended it), so it can stand in for CMD in scripts.
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

#include "command.hpp"
#include "input_database.hpp"
#include "report_folder.hpp"
#include "run_history.hpp"

namespace tlscope::cli {
namespace {

namespace fs = std::filesystem;

struct RunArgs {
  std::vector<std::string> command;
  ReportFolderOptions folder;
  std::string keep_trace;
};

volatile sig_atomic_t g_child = 0;

// A signal sent to tlscope by another process (kill, a job scheduler's SIGTERM) is passed on to
// the child. One the terminal raised (Ctrl-C: si_code > 0) already reached the child, which is in
// the same foreground process group; passing it again would deliver it twice.
void forward_signal(int sig, siginfo_t* info, void*) {
  if (g_child > 0 && info && info->si_code <= 0) kill(static_cast<pid_t>(g_child), sig);
}

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void set_forwarding(bool on) {
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  if (on) {
    sa.sa_sigaction = forward_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
  } else {
    sa.sa_handler = SIG_DFL;
  }
  for (int sig : kForwarded) sigaction(sig, &sa, nullptr);
}

// The exit status a shell would give: the code, or 128 + the signal.
int run_child(const std::vector<std::string>& command, const std::string& trace_dir) {
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  set_forwarding(true);
  pid_t pid = fork();
  if (pid < 0) {
    set_forwarding(false);
    std::fprintf(stderr, "tlscope run: cannot start %s: %s\n", command[0].c_str(),
                 std::strerror(errno));
    return 127;
  }
  if (pid == 0) {
    set_forwarding(false);
    setenv("TORCH_TRACE", trace_dir.c_str(), 1);
    execvp(argv[0], argv.data());
    // Not through stdio: its buffers and its stderr stream belong to the parent.
    dprintf(STDERR_FILENO, "tlscope run: %s: %s\n", argv[0], std::strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  g_child = pid;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  set_forwarding(false);
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::fprintf(stderr, "tlscope run: %s was killed by signal %d (%s)\n", command[0].c_str(), sig,
                 strsignal(sig));
    return 128 + sig;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

bool has_trace_logs(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind("dedicated_log_torch_trace", 0) == 0) return true;
  }
  return false;
}

// The folder the child writes its trace into: --keep-trace (new or empty), else a new run of the
// run history (run_history.hpp), else (no usable history folder) a private temporary folder
// removed afterwards. "" after printing why when none works.
std::string make_trace_dir(const RunArgs& args, bool& temporary, std::optional<RunRecord>& run) {
  std::error_code ec;
  temporary = false;
  if (!args.keep_trace.empty()) {
    fs::path dir = args.keep_trace;
    if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec))) {
      std::fprintf(stderr,
                   "tlscope run: --keep-trace %s: exists and is not an empty folder (its logs "
                   "would mix with this run's)\n",
                   dir.c_str());
      return {};
    }
    fs::create_directories(dir, ec);
    if (ec) {
      std::fprintf(stderr, "tlscope run: --keep-trace %s: %s\n", dir.c_str(), ec.message().c_str());
      return {};
    }
    return fs::absolute(dir).lexically_normal().string();
  }
  std::string error;
  run = start_run(args.command, error);
  if (run) return run->trace_dir;
  std::fprintf(stderr, "tlscope run: this run is not kept for compare (%s)\n", error.c_str());
  temporary = true;
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && tmp[0] == '/' ? tmp : "/tmp") + "/tlscope-run-XXXXXX";
  if (!mkdtemp(pattern.data())) {
    std::fprintf(stderr, "tlscope run: cannot create a trace folder %s: %s\n", pattern.c_str(),
                 std::strerror(errno));
    return {};
  }
  return pattern;
}

int run_run(RunArgs& args) {
  if (!args.command.empty() && args.command[0] == "--") args.command.erase(args.command.begin());
  if (args.command.empty()) {
    std::fprintf(stderr, "tlscope run: name the command to run: tlscope run -- CMD ARGS...\n");
    return kUsageOrIo;
  }
  // Checked before the command runs: a long training job must not end in a refused folder.
  if (std::string why = report_folder_refusal(args.folder.out_dir); !why.empty()) {
    std::fprintf(stderr, "tlscope run: %s: %s\n", args.folder.out_dir.c_str(), why.c_str());
    return kUsageOrIo;
  }
  bool temporary = false;
  std::optional<RunRecord> run;
  std::string trace = make_trace_dir(args, temporary, run);
  if (trace.empty()) return kUsageOrIo;
  const auto started = std::chrono::steady_clock::now();
  int status = run_child(args.command, trace);
  if (run) {
    run->exit_status = status;
    run->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::string error;
    if (!save_run(*run, error)) std::fprintf(stderr, "tlscope run: %s\n", error.c_str());
  }

  if (!has_trace_logs(trace)) {
    // Nothing to compare later: the history keeps runs that logged.
    if (run) {
      std::error_code ec;
      fs::remove_all(run->dir, ec);
      run.reset();
    }
    // 127: the command never ran (its error is printed already).
    if (status != 127)
      std::fprintf(stderr,
                   "tlscope run: %s wrote no TORCH_TRACE logs into %s (does it run torch.compile, "
                   "and keep TORCH_TRACE?); no report\n",
                   args.command[0].c_str(), trace.c_str());
  } else {
    ReadInputs inputs;
    inputs.paths = {trace};
    inputs.db = (fs::path(args.folder.out_dir) / "tlscope.db").string();
    if (std::string why = claim_report_folder(args.folder.out_dir, inputs.db); !why.empty()) {
      std::fprintf(stderr, "tlscope run: %s: %s\n", args.folder.out_dir.c_str(), why.c_str());
    } else if (auto db = resolve_read_database("run", inputs)) {
      std::printf("\n");
      run_subcommand({"summary", *db});
      std::printf("\n");
      args.folder.command = "run";
      args.folder.db_path = *db;
      write_report_folder(args.folder);
      if (run)
        std::printf("run recorded as %s (tlscope runs; tlscope compare @2 @1), trace in %s\n",
                    run->id.c_str(), trace.c_str());
      else if (!temporary)
        std::printf("trace logs kept in %s\n", trace.c_str());
    }
  }
  if (temporary) {
    std::error_code ec;
    fs::remove_all(trace, ec);
  }
  if (run) prune_runs(run->dir);
  return status;
}

const CommandRegistration run_registration(45, [](CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a command with TORCH_TRACE set, then summarise and report its logs; exits with the "
      "command's status");
  cmd->add_option("-o,--out", args->folder.out_dir,
                  "Report folder (default ./tlscope-report; holds tlscope.db too)");
  cmd->add_flag("--open", args->folder.open, "Open the report in the default browser");
  cmd->add_option("--keep-trace", args->keep_trace,
                  "Keep the trace logs in this (new or empty) folder; default: a new run under "
                  "$XDG_DATA_HOME/tlscope/runs (tlscope runs)");
  // Parsing stops at the command's name: what follows is the command's, in order, even without
  // `--` (tlscope run python train.py -o x passes -o x to python).
  cmd->prefix_command();
  cmd->footer("CMD ARGS...: the command to run, best after -- (tlscope run -- python train.py)");
  cmd->callback([cmd, args, &exit_code] {
    args->command = cmd->remaining();
    exit_code = run_run(*args);
  });
});

}  // namespace
}  // namespace tlscope::cli
