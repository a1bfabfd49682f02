// `tlscope rage --commands` and `tlscope rage --command K`: tlscope's own recorded invocations
// (command_log/command_log.hpp), listed newest first, and the bug bundle of one of them.
#pragma once

#include <string>
#include <vector>

namespace tlscope::cli {

// `format`: text (the aligned table), json or markdown (command_listing.hpp).
int list_recorded_commands(const std::string& format);

struct RecordedCommandBundle {
  std::string key;  // 0 = newest, 1 = the one before, ...; or a record id
  std::string out;  // .tar.gz (default tlscope-rage-command-<time>.tar.gz)
  bool redact_paths = false;
  bool no_report = false;
  bool no_probe = false;
  unsigned jobs = 0;
  int level = 6;
  std::vector<std::string> include;  // --include: files to bundle though they are not logs
  bool logs_only = false;            // --logs-only: leave out inputs that are not logs
  bool dry_run = false;              // --dry-run: list what the bundle would hold, write nothing
};
int bundle_recorded_command(const RecordedCommandBundle& args);

}  // namespace tlscope::cli
