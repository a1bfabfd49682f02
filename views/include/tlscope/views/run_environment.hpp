// The run as a whole: which PyTorch wrote its logs and the configuration it ran with, read from
// the analysis tables run_info and run_config (docs/schema.md). The report's header, `tlscope
// summary`, the viewer's run line and `compare` all read it through load_run_environment.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// One configuration value as the run carried it. When the inputs (ranks) disagree, `value` is
// the one the first input carries and `other_values` the others, "rank N: value" each.
struct ConfigValue {
  // "dynamo", "inductor", "functorch" (torch._functorch.config), "compile" (the config_* fields
  // of compilation_metrics)
  std::string scope;
  std::string key;     // "cache_size_limit"
  std::string value;   // as Python prints it: True, False, None, 8, "text"
  std::string source;  // "compilation_metrics", "artifact", "record"
  std::vector<std::string> other_values;
};

struct RunEnvironment {
  // "" when no log says. With several inputs that disagree, the first input's; every distinct
  // one is in torch_versions (log order).
  std::string torch_version, torch_commit, torch_cuda_version;
  std::string python_version, triton_version;  // from compilation_metrics, "" when absent
  std::string torch_version_source;  // where it was read: "torch_version", "fx_graph_runnable", ...
  std::vector<std::string> torch_versions;
  std::vector<ConfigValue> config_values;     // by scope, then key
  std::map<std::string, std::string> config;  // "scope.key" -> value (the first input's)
  bool analysed = false;  // false: the database has no run_info table (an older analysis)
};

Result<RunEnvironment> load_run_environment(const Database& db);

// "2.14.0 (commit 1a2b3c4d5e6f)", "2.6.0a0+giteece9ec", or "" when the logs do not say.
std::string torch_version_text(const RunEnvironment& env);

}  // namespace tlscope::views
