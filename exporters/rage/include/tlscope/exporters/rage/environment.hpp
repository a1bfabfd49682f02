// env.txt of the rage bundle, in the spirit of PyTorch's collect_env: what tlscope was built with,
// the machine, and the environment variables that change how PyTorch, CUDA and NCCL behave, with
// secret values redacted.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tlscope/exporters/rage/redaction.hpp"

namespace tlscope::exporters::rage {

struct EnvironmentOptions {
  std::string tlscope_version;
  // "name version" lines the caller knows and this layer does not (e.g. CLI11 in cli/).
  std::vector<std::string> extra_versions;
  // NAME=value pairs; the process environment when empty.
  std::vector<std::pair<std::string, std::string>> variables;
  bool use_process_environment = true;
  // Ask `python3` for its version and torch's, and `nvidia-smi` for the GPUs, each bounded by
  // `probe_timeout_seconds` (a probe that runs out of time is recorded as timed out).
  bool probe_python = true;
  std::string python = "python3", nvidia_smi = "nvidia-smi";  // looked up in PATH
  double probe_timeout_seconds = 20;
};

// Whether a variable belongs in env.txt (TORCH*, CUDA*, NCCL*, PYTHON*, OMP_*, ...).
bool is_relevant_env_name(std::string_view name);

// The text of env.txt. Secret-named variables keep their name with the value replaced; all other
// values go through the redactor. Counts land in `counts`.
std::string describe_environment(const EnvironmentOptions& options, Redactor& redactor,
                                 RedactionCounts& counts);

}  // namespace tlscope::exporters::rage
