// What `summary --format json` adds to a run's counts for today's logs (docs/json.md): the
// PyTorch commit and configuration, compile time per phase summed over the run, records of
// kinds tlscope does not know, the artifacts of each subgraph (the envelope's subgraph_name) and
// vLLM's compile summary. Read by load_run_summary into RunSummary::records.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/compile_phases.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/summary.hpp"

namespace tlscope::views {

struct SubgraphSummary {
  std::string compile_id, subgraph_name;
  std::vector<std::string> artifacts;  // its records' names (artifact name, else kind), log order
};

struct VllmPiecewiseSummary {
  std::optional<int64_t> index, range_start, range_end;
  std::string submod_name;
  bool single_size = false, cudagraph_capture_size = false;
};

struct VllmSummary {
  std::vector<std::pair<std::string, std::string>> config;  // the first call's, as written
  std::vector<VllmPiecewiseSummary> piecewise;              // every call's, log order
  std::vector<std::string> post_grad_passes;                // pass names, log order
};

struct RunRecords {
  std::string torch_commit;                                 // "" when the logs do not say
  std::vector<std::pair<std::string, std::string>> config;  // "scope.key" -> value, by key
  std::vector<PhaseTotal> compile_phases;                   // summed over the run, depth first
  std::vector<KindCount> unknown_record_kinds;              // most frequent first
  std::vector<SubgraphSummary> subgraphs;                   // by first record
  std::optional<VllmSummary> vllm;                          // only when the log has vLLM records
};

Result<RunRecords> load_run_records(const Database& db);
// The same with the run's environment already read (load_run_environment).
Result<RunRecords> load_run_records(const Database& db, const Result<RunEnvironment>& env);

}  // namespace tlscope::views
