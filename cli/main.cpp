// tlscope: structured-log analysis for torch.compile traces and the bundled tensor runtime.
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <sstream>

#include "command.hpp"
#include "invocation.hpp"
#include "tlscope/model/safe_output.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/version.hpp"

namespace tlscope::cli {

std::vector<std::pair<int, CommandSetup>>& command_registry() {
  static std::vector<std::pair<int, CommandSetup>> registry;
  return registry;
}

CommandRegistration::CommandRegistration(int order, CommandSetup setup) {
  command_registry().emplace_back(order, std::move(setup));
}

// `tlscope run [OPTIONS] -- CMD...`: CLI11 gives a subcommand nothing after `--`, so the marker
// is taken out here when it ends run's own options; run (a prefix command) then takes CMD from
// its first word on. A `--` among CMD's own arguments stays.
void drop_command_marker(std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
    if (a.empty() || a[0] != '-') return;                       // CMD's first word
    if (a == "-o" || a == "--out" || a == "--keep-trace") ++i;  // an option's value
  }
}

int run_subcommand(std::vector<std::string> args) {
  CLI::App app{"tlscope: read torch.compile TORCH_TRACE logs into SQLite, analyse, report",
               "tlscope"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tlscope " + std::string(tlscope::kVersion));
  int exit_code = kOk;
  auto& registry = command_registry();
  std::stable_sort(registry.begin(), registry.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : registry) setup(app, exit_code);
  // `tlscope LOGS...` is `tlscope report LOGS...`, as `tlparse LOG` writes its report.
  if (!args.empty() && !args[0].empty() && args[0][0] != '-' &&
      app.get_subcommands([&](CLI::App* s) { return s->check_name(args[0]); }).empty()) {
    std::error_code ec;
    if (!std::filesystem::exists(args[0], ec)) {
      std::fprintf(stderr,
                   "tlscope: %s: neither a command nor a file or directory (tlscope --help "
                   "lists the commands)\n",
                   args[0].c_str());
      return kUsageOrIo;
    }
    args.insert(args.begin(), "report");
  }
  if (!args.empty() && args[0] == "run") drop_command_marker(args);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    // Through stdio's stderr, so the command log keeps the message (invocation.cpp).
    std::ostringstream out, err;
    int rc = app.exit(e, out, err);
    std::fputs(out.str().c_str(), stdout);
    std::fputs(err.str().c_str(), stderr);
    return rc == 0 ? kOk : kUsageOrIo;
  } catch (const std::exception& e) {
    // Last resort: each command reports its own failures, but none may end in std::terminate.
    std::fprintf(stderr, "tlscope: %s\n", e.what());
    return kUsageOrIo;
  } catch (...) {
    std::fprintf(stderr, "tlscope: unexpected failure\n");
    return kUsageOrIo;
  }
  return exit_code;
}

// Fixed malloc thresholds: glibc raises its mmap threshold to the largest block freed so far
// (up to 32 MiB), so after the first multi-MB page or timeline string every later one came from
// the threads' arenas and stayed there; the report's two threads then peaked 8-14 MiB higher,
// and the 1 GB log's one command at 141-149 MiB against a 150 MB budget (bench/README.md,
// session 8). Blocks of 1 MiB and more are mapped and handed back when freed.
void set_heap_policy() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 10);
#endif
}

// A parent may start tlscope with stdin, stdout or stderr closed (`<&-`, a daemon). The next
// file opened then takes that number: `ingest -` read the database being written as its log
// (0.3 MB of "SQLite format 3" ingested as 28 errors), and a message printed to a closed
// stdout would land in whatever file holds fd 1. Each closed one is opened on /dev/null first.
void open_standard_streams() {
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    int opened = ::open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY);
    // open() returns the lowest free number, which is `fd` itself: the ones below are open.
    if (opened > STDERR_FILENO) ::close(opened);
  }
}

}  // namespace tlscope::cli

int main(int argc, char** argv) {
  using namespace tlscope::cli;
  open_standard_streams();             // before anything opens a file
  set_heap_policy();                   // before the first allocation of any size
  tlscope::model::configure_sqlite();  // before any thread or database exists
  // Past `ulimit -f` a write fails with EFBIG and is reported (exit 2, temporaries removed)
  // instead of SIGXFSZ killing tlscope with its temporaries in place.
  tlscope::model::ignore_file_size_signal();
  begin_invocation(argc, argv, std::string(tlscope::kVersion).c_str());
  return end_invocation(run_subcommand(std::vector<std::string>(argv + 1, argv + argc)));
}
