// Running a fixed program to describe the environment (python3 --version, nvidia-smi) with a
// deadline, and telling apart what happened: not installed, timed out, failed, or its output.
#pragma once

#include <string>
#include <vector>

namespace tlscope::exporters::rage {

struct ProbeResult {
  enum class Status { kOk, kNotFound, kTimedOut, kFailed };
  Status status = Status::kFailed;
  int exit_code = 0;   // kFailed: the exit code, or 128 + the signal that ended it
  std::string output;  // stdout and stderr, trailing blanks trimmed, at most 64 KB
};

// Runs `argv` (argv[0] looked up in PATH; no shell, so nothing in it is interpreted), stdin from
// /dev/null, killed once it runs past `timeout_seconds`.
ProbeResult run_probe(const std::vector<std::string>& argv, double timeout_seconds);

}  // namespace tlscope::exporters::rage
