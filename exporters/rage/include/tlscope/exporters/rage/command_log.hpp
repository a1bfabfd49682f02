// tlscope's record of its own invocations, so `tlscope rage --command K` can bundle one when
// tlscope itself misbehaved: one small JSON file per invocation in
// $XDG_STATE_HOME/tlscope/commands (fallback ~/.local/state/tlscope/commands), the newest 100 kept.
// A record is written when the command starts (exit_status absent) and rewritten when it ends,
// so a crash or a kill leaves a record that says the command never finished.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::exporters::rage {

inline constexpr size_t kCommandsKept = 100;

struct CommandRecord {
  std::string id;           // the file's stem: "<UTC start>-<pid>", ordered like the start times
  std::string started_utc;  // 2026-12-01T09:21:52.123456Z
  long pid = 0;
  std::string version;
  std::string cwd;
  std::vector<std::string> argv;
  std::optional<int> exit_status;  // absent: running, or killed / crashed before it ended
  double duration_s = 0;
  std::vector<std::string> inputs;  // log files the command read (absolute), when it said so
  std::string database;             // the database it read or built
  std::string report;               // the report folder it wrote
  std::string stderr_tail;          // the last lines tlscope wrote to stderr
};

// $XDG_STATE_HOME/tlscope/commands, or ~/.local/state/tlscope/commands.
std::string command_log_dir();

// A record's JSON text (valid UTF-8 whatever bytes argv or stderr held) and its reading back.
std::string command_record_json(const CommandRecord& record);
std::optional<CommandRecord> parse_command_record(std::string_view json, std::string* error);

// Writes `record` as <dir>/<id>.json (through a temporary file and a rename) and, when `prune`,
// removes the oldest records beyond kCommandsKept. Returns "" or what went wrong, naming the path.
std::string write_command_record(const std::string& dir, const CommandRecord& record, bool prune);

struct CommandListing {
  std::vector<CommandRecord> records;  // newest first
  std::vector<std::string> problems;   // unreadable records ("path: reason")
};
CommandListing list_command_records(const std::string& dir);

// "<UTC>-<pid>" for a record starting now, and the matching started_utc.
void stamp_new_record(CommandRecord& record);

}  // namespace tlscope::exporters::rage
