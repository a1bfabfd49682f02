// `tlscope rage [DIR|FILES...|DB] [--list] [--run K] -o bundle.tar.gz`: pack one run's logs,
// database, report and environment, secrets redacted, into a bundle for a bug report.
#include <pwd.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "command.hpp"
#include "output_paths.hpp"
#include "rage_commands.hpp"
#include "terminal_text.hpp"
#include "tlscope/exporters/rage/rage.hpp"
#include "tlscope/exporters/rage/regular_file.hpp"
#include "tlscope/model/input_cache.hpp"
#include "tlscope/version.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::cli {
namespace {

namespace rage = exporters::rage;

struct RageArgs {
  std::vector<std::string> inputs;
  std::string out;
  bool list = false;
  bool no_scan = false;
  size_t run = 0;
  double gap = 60;
  bool redact_paths = false;
  bool no_report = false;
  bool no_probe = false;
  unsigned jobs = 0;
  int level = 6;
  bool commands = false;             // --commands: tlscope's own recorded invocations
  std::string command;               // --command K: the bundle of one of them
  std::vector<std::string> include;  // with --command: files named to be bundled too
  bool logs_only = false;
  bool dry_run = false;
  std::string format = "text";  // with --commands: text, json or markdown
};

std::string rage_bytes_text(uint64_t bytes) {
  char buf[32];
  if (bytes < 1000)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else if (bytes < 1000 * 1000)
    std::snprintf(buf, sizeof buf, "%.1f KB", bytes / 1e3);
  else if (bytes < 1000ull * 1000 * 1000)
    std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

// "0-3, 5" for ranks 0,1,2,3,5 (the findings' rank runs); "-" without ranks.
std::string rage_rank_ranges(const std::vector<int64_t>& ranks) {
  return ranks.empty() ? "-" : views::rank_runs(ranks);
}

// One status line on stderr, redrawn at most ten times a second; only on a terminal.
class RageProgress {
 public:
  RageProgress() : enabled_(isatty(STDERR_FILENO)) {}
  void update(std::string_view stage, uint64_t done, uint64_t total) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    if (stage == stage_ && now - last_ < std::chrono::milliseconds(100) && done < total) return;
    last_ = now;
    stage_ = stage;
    double frac = total ? std::min(1.0, static_cast<double>(done) / total) : 0;
    int filled = static_cast<int>(frac * 24);
    std::fprintf(stderr, "\r%-20.*s [%.*s%*s] %5.1f%%", static_cast<int>(stage.size()),
                 stage.data(), filled, "########################", 24 - filled, "", frac * 100);
    drawn_ = true;
  }
  void clear() {
    if (drawn_) std::fprintf(stderr, "\r%*s\r", 60, "");
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool drawn_ = false;
  std::string stage_;
  std::chrono::steady_clock::time_point last_{};
};

void print_rage_runs(const std::string& dir, const rage::RunListing& listing) {
  std::printf("%zu run(s) in %s, newest first (bundle one with: tlscope rage %s --run K):\n",
              listing.runs.size(), dir.c_str(), dir.c_str());
  std::printf("%4s  %-19s  %-19s  %-9s %5s %10s %8s %8s %6s %6s\n", "run", "started", "last record",
              "ranks", "files", "size", "records", "compiles", "failed", "breaks");
  for (size_t i = 0; i < listing.runs.size(); ++i) {
    const rage::TraceRun& r = listing.runs[i];
    std::printf("%4zu  %-19s  %-19s  %-9s %5zu %10s", i, rage::format_wall_time(r.start).c_str(),
                rage::format_wall_time(r.end).c_str(), rage_rank_ranges(r.ranks).c_str(),
                r.files.size(), rage_bytes_text(r.bytes).c_str());
    if (r.scanned)
      std::printf(" %8lld %8lld %6lld %6lld\n", static_cast<long long>(r.records),
                  static_cast<long long>(r.compiles), static_cast<long long>(r.failed_compiles),
                  static_cast<long long>(r.graph_breaks));
    else
      std::printf(" %8s %8s %6s %6s\n", "-", "-", "-", "-");
  }
}

std::string default_rage_bundle_name() {
  time_t t = std::time(nullptr);
  struct tm tm {};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "tlscope-rage-%Y%m%d-%H%M%S.tar.gz", &tm);
  return buf;
}

int run_rage(RageArgs args) {
  namespace fs = std::filesystem;
  if (args.format != "text" && !args.commands) {
    std::fprintf(stderr,
                 "tlscope rage: --format applies to --commands only (a bundle is a file)\n");
    return kUsageOrIo;
  }
  if (args.commands) return list_recorded_commands(args.format);
  if (!args.command.empty())
    return bundle_recorded_command({args.command, args.out, args.redact_paths, args.no_report,
                                    args.no_probe, args.jobs, args.level, args.include,
                                    args.logs_only, args.dry_run});
  if (!args.include.empty() || args.logs_only || args.dry_run) {
    std::fprintf(stderr,
                 "tlscope rage: --include, --logs-only and --dry-run go with --command K\n");
    return kUsageOrIo;
  }
  if (args.inputs.empty()) {
    const char* trace = std::getenv("TORCH_TRACE");
    if (!trace || !*trace) {
      std::fprintf(stderr,
                   "tlscope rage: name a TORCH_TRACE directory, log files or a database "
                   "(or set TORCH_TRACE)\n");
      return kUsageOrIo;
    }
    args.inputs.push_back(trace);
  }
  for (const std::string& in : args.inputs) {
    std::error_code ec;
    if (!fs::exists(in, ec)) {
      std::fprintf(stderr, "tlscope rage: %s: no such file or directory\n", in.c_str());
      return kUsageOrIo;
    }
    // Reading a FIFO would block forever and a device may never end.
    auto kind = rage::special_file_kind(in);
    if (kind && !fs::is_directory(in, ec)) {
      std::fprintf(stderr, "tlscope rage: %s: %s, not a regular file: rage bundles log files\n",
                   in.c_str(), kind->c_str());
      return kUsageOrIo;
    }
  }
  RageProgress bar;
  rage::RunGrouping grouping;
  grouping.gap_seconds = args.gap;
  rage::RageOptions options;
  const std::string& first = args.inputs[0];
  bool directory = args.inputs.size() == 1 && fs::is_directory(first);

  if (args.list) {
    if (!directory) {
      std::fprintf(stderr, "tlscope rage --list: %s: not a directory\n", first.c_str());
      return kUsageOrIo;
    }
    rage::RunListing listing = rage::list_runs(
        first, grouping, !args.no_scan,
        [&](uint64_t done, uint64_t total) { bar.update("reading logs", done, total); });
    bar.clear();
    for (const std::string& p : listing.problems)
      std::fprintf(stderr, "tlscope rage: %s\n", p.c_str());
    if (listing.runs.empty()) return kUsageOrIo;
    print_rage_runs(first, listing);
    return kOk;
  }

  if (directory) {
    rage::RunListing listing = rage::list_runs(first, grouping, false);
    for (const std::string& p : listing.problems)
      std::fprintf(stderr, "tlscope rage: %s\n", p.c_str());
    if (listing.runs.empty()) return kUsageOrIo;
    if (args.run >= listing.runs.size()) {
      std::fprintf(
          stderr,
          "tlscope rage: --run %zu: %s holds %zu run(s), 0 to %zu (see tlscope rage --list %s)\n",
          args.run, first.c_str(), listing.runs.size(), listing.runs.size() - 1, first.c_str());
      return kUsageOrIo;
    }
    options.run = listing.runs[args.run];
    options.source_description = "run " + std::to_string(args.run) + " (0 = newest) of " +
                                 std::to_string(listing.runs.size()) + " in " +
                                 fs::absolute(first).string();
  } else if (args.inputs.size() == 1 && model::is_database_file(first)) {
    options.db_path = first;
    options.source_description = "the database " + fs::absolute(first).string();
  } else {
    std::vector<rage::TraceFile> files;
    for (const std::string& in : args.inputs) {
      if (fs::is_directory(in)) {
        std::fprintf(stderr, "tlscope rage: %s: a directory must be the only input\n", in.c_str());
        return kUsageOrIo;
      }
      files.push_back(rage::probe_trace_file(in));
    }
    // Files named explicitly are one run, whatever their times say.
    rage::TraceRun run;
    run.start = files[0].start;
    run.end = files[0].end;
    for (auto& f : files) {
      run.start = std::min(run.start, f.start);
      run.end = std::max(run.end, f.end);
      run.bytes += f.bytes;
      if (f.rank) run.ranks.push_back(*f.rank);
      run.files.push_back(std::move(f));
    }
    std::sort(run.ranks.begin(), run.ranks.end());
    options.run = std::move(run);
    options.source_description =
        std::to_string(args.inputs.size()) + " log file(s) named on the command line";
  }

  options.out_path = args.out.empty() ? default_rage_bundle_name() : args.out;
  std::vector<std::string> read = args.inputs;  // and the files a directory's run named
  for (const rage::TraceFile& f : options.run.files) read.push_back(f.path);
  if (refuse_output_over_input("rage", options.out_path, read)) return kUsageOrIo;
  options.redaction.redact_paths = args.redact_paths;
  if (const char* home = std::getenv("HOME")) options.redaction.home = home;
  if (struct passwd* pw = getpwuid(getuid())) options.redaction.user = pw->pw_name;
  options.environment.tlscope_version = std::string(tlscope::kVersion);
  options.environment.extra_versions.push_back("cli11 " CLI11_VERSION);
  options.environment.probe_python = !args.no_probe;
  options.jobs =
      args.jobs ? args.jobs : std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  options.with_report = !args.no_report;
  options.compression_level = args.level;
  options.progress = [&](std::string_view stage, uint64_t done, uint64_t total) {
    bar.update(stage, done, total);
  };
  rage::RageResult r = rage::write_rage_bundle(options);
  bar.clear();
  if (!r.ok) {
    std::fprintf(stderr, "tlscope rage: %s\n", terminal_safe(r.error).c_str());
    return kUsageOrIo;
  }
  for (const std::string& n : r.notes)
    std::fprintf(stderr, "tlscope rage: note: %s\n", terminal_safe(n).c_str());
  std::printf(
      "bundled %s: %zu file(s), %s (%s unpacked), %llu events, %llu ingest errors, "
      "%llu secret(s) redacted, in %.2f s\n",
      options.source_description.c_str(), r.entries, rage_bytes_text(r.bundle_bytes).c_str(),
      rage_bytes_text(r.archived_bytes).c_str(), static_cast<unsigned long long>(r.events),
      static_cast<unsigned long long>(r.ingest_errors),
      static_cast<unsigned long long>(r.counts.total()), r.seconds);
  std::printf("  time:");
  for (const auto& stage : r.stages)
    std::printf(" %s %.2f s (cpu %.2f s)", stage.name.c_str(), stage.wall, stage.cpu);
  std::printf("\n");
  for (size_t k = 0; k < r.counts.by_kind.size(); ++k) {
    if (r.counts.by_kind[k])
      std::printf("  redacted %-18s %llu\n",
                  std::string(rage::to_string(static_cast<rage::SecretKind>(k))).c_str(),
                  static_cast<unsigned long long>(r.counts.by_kind[k]));
  }
  std::printf("-> %s (look through it before you share it)\n", options.out_path.c_str());
  return kOk;
}

CommandRegistration rage_registration{
    70, [](CLI::App& app, int& exit_code) {
      auto args = std::make_shared<RageArgs>();
      CLI::App* cmd = app.add_subcommand(
          "rage",
          "Pack a bug bundle: one run's logs, database, report and environment, secrets "
          "redacted");
      cmd->add_option("inputs", args->inputs,
                      "A TORCH_TRACE directory (default $TORCH_TRACE), log files of one run, or a "
                      "tlscope database");
      cmd->add_option("-o,--out", args->out,
                      "Bundle to write (default tlscope-rage-<time>.tar.gz)");
      cmd->add_flag("--list", args->list, "List the runs in the directory, newest first, and exit");
      cmd->add_flag("--no-scan", args->no_scan,
                    "With --list: do not read the logs to count records and compiles");
      cmd->add_option("--run", args->run,
                      "Which run of the directory: 0 = newest (default), 1 = "
                      "the one before, ...");
      cmd->add_option("--gap", args->gap,
                      "Seconds between the logs of two runs when no rank repeats (default 60)")
          ->check(CLI::NonNegativeNumber);
      cmd->add_flag("--redact-paths", args->redact_paths,
                    "Also replace the home directory with ~ and the user name with <user>");
      cmd->add_flag("--no-report", args->no_report, "Leave the HTML report out");
      cmd->add_flag("--no-probe", args->no_probe,
                    "Do not run python3/nvidia-smi to describe the environment");
      cmd->add_option("--jobs", args->jobs, "Ingest threads")->check(CLI::Range(1, 64));
      cmd->add_option("--level", args->level, "gzip level: 1 is fastest, 9 smallest (default 6)")
          ->check(CLI::Range(1, 9));
      cmd->add_flag("--commands", args->commands,
                    "List tlscope's own recorded invocations, newest first, and exit");
      cmd->add_option("--format", args->format,
                      "With --commands: text, json (docs/json.md) or markdown")
          ->check(CLI::IsMember({"text", "json", "markdown"}));
      cmd->add_option("--command", args->command,
                      "Bundle one recorded tlscope invocation: K from --commands (0 = newest)");
      cmd->add_option("--include", args->include,
                      "With --command: also bundle this file (redacted, under extra/); the only "
                      "way a file that is not a TORCH_TRACE log gets in");
      cmd->add_flag("--logs-only", args->logs_only,
                    "With --command: leave out the inputs that are not TORCH_TRACE logs instead "
                    "of refusing");
      cmd->add_flag("--dry-run", args->dry_run,
                    "With --command: list what the bundle would hold and write nothing");
      cmd->callback([args, &exit_code] { exit_code = run_rage(*args); });
    }};

}  // namespace
}  // namespace tlscope::cli
