// tlscope's record of its own invocations, so `tlscope rage --command K` can bundle one when
// tlscope itself misbehaved: $XDG_STATE_HOME/tlscope/commands.jsonl (fallback
// ~/.local/state/tlscope), one JSON record a line, the newest 100 listed. A record is appended when
// the command starts (exit_status absent) and again, complete, when it ends (the later line of an
// id wins), so a crash or a kill leaves a record that says the command never finished.
//
// Why one appended file rather than a file per record: an append is an open, a write and a close
// on a file that exists; creating, renaming and unlinking files costs journal work (an unlink
// took 1.6-2.6 ms on this VM's ext4 under load, against the budget of 1 ms per invocation).
//
// Bounded whatever is planted there (docs/security.md, "State and caches"): a record's fields are
// clipped (a record stays under 64 KiB even of hostile bytes; a few hundred bytes usually);
// each append is one write under an exclusive flock; past kCommandLogRotateBytes the log's tail
// goes to commands.jsonl.1 and the log starts again; a reader reads only the last
// kCommandLogReadBytes of each file. A FIFO, device or link at either name is refused, never
// opened for blocking or followed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::command_log {

inline constexpr size_t kCommandsKept = 100;
inline constexpr uint64_t kCommandLogRotateBytes = 512 * 1024;
inline constexpr uint64_t kCommandLogReadBytes = 1024 * 1024;

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

// model::user_folder("state"): $XDG_STATE_HOME/tlscope, or ~/.local/state/tlscope; "" when no
// home is known. The folder of commands.jsonl.
std::string command_log_dir();
std::string command_log_path(const std::string& dir);

// A record's JSON text, one line (valid UTF-8 whatever bytes argv or stderr held), and back.
std::string command_record_json(const CommandRecord& record);
std::optional<CommandRecord> parse_command_record(std::string_view json, std::string* error);

// Appends `record` (bounded) to the log in `dir` (created 0700; a folder of another user's, a
// link or one writable by others is refused) in one write under an exclusive lock, rotating the
// log past kCommandLogRotateBytes. Returns "" or what went wrong, naming the path.
std::string append_command_record(const std::string& dir, const CommandRecord& record);

struct CommandListing {
  std::vector<CommandRecord> records;  // newest first, at most kCommandsKept
  std::vector<std::string> problems;   // unreadable lines ("path:line: reason")
};
CommandListing list_command_records(const std::string& dir);

// "<UTC>-<pid>" for a record starting now, and the matching started_utc.
void stamp_new_record(CommandRecord& record);

}  // namespace tlscope::command_log
