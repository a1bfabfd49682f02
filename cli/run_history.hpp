// The runs `tlscope run` captured, kept so they can be compared later (`tlscope runs`,
// `tlscope compare @2 @1`): one folder per run under $XDG_DATA_HOME/tlscope/runs/ (default
// ~/.local/share/tlscope/runs), holding the trace and run.json (the command line, working folder,
// git commit, start time, exit status). The folder is private (0700) and bounded: the oldest
// runs go when the total passes kMaxRunBytes or the count kMaxRuns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::cli {

struct RunRecord {
  std::string id;         // "20261205-004512-12345": start time (UTC) and pid, sorts by time
  std::string dir;        // runs/<id>
  std::string trace_dir;  // runs/<id>/trace: what TORCH_TRACE pointed at
  int64_t started = 0;    // Unix seconds
  double seconds = -1;    // how long the command ran; -1 while it runs (or when it was killed)
  int exit_status = -1;   // the command's status as `tlscope run` returns it; -1 unknown
  std::vector<std::string> command;
  std::string cwd;
  std::string git_commit;        // "" outside a git work tree
  std::optional<bool> git_dirty; // uncommitted changes, when inside one
  std::string torch_version;     // from the trace, "" when it does not say
  int64_t bytes = 0;             // the run folder's size on disk
};

inline constexpr int64_t kMaxRunBytes = int64_t{4} << 30;
inline constexpr size_t kMaxRuns = 200;

// The runs folder, created 0700 when missing; "" with `error` set when there is no usable
// one (no absolute XDG_DATA_HOME or HOME, a folder owned by another user or open to others).
std::string runs_folder(std::string& error);

// A new run's folder and trace folder, its run.json written with what is known before it runs.
std::optional<RunRecord> start_run(const std::vector<std::string>& command, std::string& error);

// Writes run.json again (after the command ended: status, duration, torch version).
bool save_run(const RunRecord& run, std::string& error);

// Every run, newest first; unreadable run folders are skipped.
std::vector<RunRecord> list_runs();

// `@1` (the newest), `@2`, ..., `@ID` or an ID: the run's trace folder; nullopt when `ref` is not
// of that form; "" with `error` set when it is but no such run exists.
std::optional<std::string> resolve_run_reference(const std::string& ref, std::string& error);

// Removes the oldest runs past the bounds, never `keep` (the run being written).
void prune_runs(const std::string& keep);

}  // namespace tlscope::cli
