// Reading the PyTorch version facts out of the texts that carry them (a torch_version record or
// artifact, compilation_metrics fields, fx_graph_runnable's header); the run_environment pass
// writes them to run_info.
#pragma once

#include <string>
#include <string_view>

namespace tlscope::model::analysis {

struct TorchVersionFacts {
  std::string version;         // "2.14.0", "2.6.0a0+giteece9ec"; "" when the text does not say
  std::string commit;          // the git commit (full, or the short one of a "+git" version)
  std::string cuda;            // the CUDA version PyTorch was built with
  std::string python, triton;  // compilation_metrics' python_version and triton_version
};

// `text` is "key: value" lines (`# torch version: 2.14.0`, `git_version: abc...`, or a JSON
// object's members as the pass writes them), or a bare version string.
TorchVersionFacts read_torch_version_text(std::string_view text);

}  // namespace tlscope::model::analysis
