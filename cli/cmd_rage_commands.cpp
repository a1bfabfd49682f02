// Listing and bundling tlscope's recorded invocations for `tlscope rage`.
#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <thread>

#include "command.hpp"
#include "command_listing.hpp"
#include "rage_commands.hpp"
#include "terminal_text.hpp"
#include "tlscope/exporters/rage/command_bundle.hpp"
#include "tlscope/version.hpp"

namespace tlscope::cli {
namespace {

namespace rage = exporters::rage;

bool process_alive(const command_log::CommandRecord& r) {
  return r.pid > 0 && kill(static_cast<pid_t>(r.pid), 0) == 0;
}

// The exit status, or what became of a command without one (still running, or ended without
// reaching the end of main).
std::string shown_status(const command_log::CommandRecord& r) {
  return r.exit_status ? std::to_string(*r.exit_status) : command_state(r, process_alive(r));
}

std::string shown_command(const command_log::CommandRecord& r) {
  std::string text = command_line_words(r);
  if (text.size() > 120) text = text.substr(0, 117) + "...";
  return terminal_safe(text);
}

// The records K counts: not this process, nor earlier `tlscope rage --commands/--command` runs,
// so the K that --commands printed still names the same command when --command K comes next.
command_log::CommandListing listed_commands(const std::string& dir) {
  command_log::CommandListing listing = command_log::list_command_records(dir);
  auto browsing = [](const command_log::CommandRecord& r) {
    if (r.pid == getpid() && r.exit_status == std::nullopt) return true;
    if (r.argv.size() < 2 || r.argv[1] != "rage") return false;
    return std::any_of(r.argv.begin(), r.argv.end(), [](const std::string& a) {
      return a == "--commands" || a.rfind("--command", 0) == 0;
    });
  };
  listing.records.erase(std::remove_if(listing.records.begin(), listing.records.end(), browsing),
                        listing.records.end());
  return listing;
}

}  // namespace

int list_recorded_commands(const std::string& format) {
  std::string dir = command_log::command_log_dir();
  command_log::CommandListing listing = listed_commands(dir);
  if (format == "json" || format == "markdown") {
    std::vector<ListedCommand> listed;
    for (const command_log::CommandRecord& r : listing.records)
      listed.push_back({&r, command_state(r, process_alive(r))});
    // JSON carries the unreadable lines in "problems"; markdown leaves them on stderr.
    if (format == "markdown")
      for (const std::string& p : listing.problems)
        std::fprintf(stderr, "tlscope rage: %s\n", terminal_safe(p).c_str());
    const std::string text = format == "json" ? commands_json(dir, listed, listing.problems)
                                              : commands_markdown(dir, listed);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kOk;
  }
  for (const std::string& p : listing.problems)
    std::fprintf(stderr, "tlscope rage: %s\n", terminal_safe(p).c_str());
  std::printf(
      "%zu tlscope command(s) recorded in %s, newest first (bundle one with: tlscope rage "
      "--command K -o bug.tar.gz):\n",
      listing.records.size(), terminal_safe(dir).c_str());
  std::printf("%4s  %-26s  %7s  %9s  %s\n", "K", "started (UTC)", "exit", "time", "command");
  for (size_t k = 0; k < listing.records.size(); ++k) {
    const command_log::CommandRecord& r = listing.records[k];
    std::printf("%4zu  %-26s  %7s  %7.2f s  %s\n", k, terminal_safe(r.started_utc).c_str(),
                shown_status(r).c_str(), r.duration_s, shown_command(r).c_str());
  }
  return kOk;
}

int bundle_recorded_command(const RecordedCommandBundle& args) {
  std::string dir = command_log::command_log_dir();
  command_log::CommandListing listing = listed_commands(dir);
  const command_log::CommandRecord* chosen = nullptr;
  char* end = nullptr;
  unsigned long k = std::strtoul(args.key.c_str(), &end, 10);
  bool index = !args.key.empty() && *end == '\0';
  if (index && k < listing.records.size()) chosen = &listing.records[k];
  for (const auto& r : listing.records)
    if (!index && r.id == args.key) chosen = &r;
  if (!chosen) {
    std::fprintf(stderr,
                 "tlscope rage --command %s: no such recorded command in %s (tlscope rage "
                 "--commands lists them: 0 = newest)\n",
                 terminal_safe(args.key).c_str(), terminal_safe(dir).c_str());
    return kUsageOrIo;
  }
  rage::CommandBundleOptions options;
  options.record = *chosen;
  rage::RageOptions& o = options.rage;
  if (args.out.empty()) {
    time_t t = std::time(nullptr);
    struct tm tm {};
    localtime_r(&t, &tm);
    char name[64];
    std::strftime(name, sizeof name, "tlscope-rage-command-%Y%m%d-%H%M%S.tar.gz", &tm);
    o.out_path = name;
  } else {
    o.out_path = args.out;
  }
  // The same settings `tlscope rage` gives a run bundle (cmd_rage.cpp).
  o.redaction.redact_paths = args.redact_paths;
  if (const char* home = std::getenv("HOME")) o.redaction.home = home;
  if (struct passwd* pw = getpwuid(getuid())) o.redaction.user = pw->pw_name;
  o.environment.tlscope_version = std::string(tlscope::kVersion);
  o.environment.extra_versions.push_back("cli11 " CLI11_VERSION);
  o.environment.probe_python = !args.no_probe;
  o.jobs = args.jobs ? args.jobs : std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  o.with_report = !args.no_report;
  o.compression_level = args.level;
  options.include = args.include;
  options.logs_only = args.logs_only;
  if (args.dry_run) {
    rage::CommandBundlePlan plan = rage::plan_command_bundle(options);
    std::printf("%s", terminal_safe_lines(rage::describe_command_bundle(options, plan)).c_str());
    if (!plan.refusal.empty()) {
      std::fprintf(stderr, "tlscope rage: %s\n", terminal_safe_lines(plan.refusal).c_str());
      return kUsageOrIo;
    }
    return kOk;
  }
  rage::RageResult r = rage::write_command_bundle(options);
  if (!r.ok) {
    std::fprintf(stderr, "tlscope rage: %s\n", terminal_safe_lines(r.error).c_str());
    return kUsageOrIo;
  }
  for (const std::string& n : r.notes)
    std::fprintf(stderr, "tlscope rage: note: %s\n", terminal_safe(n).c_str());
  std::printf("bundled tlscope command %s (%s): %zu file(s), %llu bytes, %llu secret(s) redacted\n",
              terminal_safe(chosen->id).c_str(), shown_command(*chosen).c_str(), r.entries,
              static_cast<unsigned long long>(r.bundle_bytes),
              static_cast<unsigned long long>(r.counts.total()));
  std::printf("-> %s (look through it before you share it)\n", o.out_path.c_str());
  return kOk;
}

}  // namespace tlscope::cli
