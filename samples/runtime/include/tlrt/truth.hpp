// Ground truth of a run (truth.json): what the runtime really did, written beside the logs so the
// analysis can be checked against it. Shared by all rank threads.
#pragma once
#include <mutex>
#include <string>

#include "tlrt/json.hpp"

namespace tlrt {

class Truth {
 public:
  // section: graph_breaks, recompiles, failures, cache_limit, dynamic_dims, collectives, faults,
  // compiled_graphs (per graph with collectives: their ops and the estimated runtime),
  // provenance, specializations, autotuning (kernels + link per compile), runtime (runtime
  // metrics), vllm_config (the config logged), vllm_piecewise (each piecewise compile), vllm_passes
  // (each post-grad pass run with the lines it removed and added), environment (the torch version
  // and commit the logs carry), config (per rank: the dynamo config values its first
  // compilation_metrics carries)
  void add(const std::string& section, Json entry);
  size_t count(const std::string& section) const;
  // Writes {"scenario","ranks","seed","steps", sections...} to path; throws on I/O failure.
  void write(const std::string& path, const std::string& scenario, int ranks, uint64_t seed,
             int steps) const;

 private:
  mutable std::mutex mu_;
  Json::Object sections_ = {{"graph_breaks", Json::array()}, {"recompiles", Json::array()},
                            {"failures", Json::array()},     {"cache_limit", Json::array()},
                            {"dynamic_dims", Json::array()}, {"collectives", Json::array()},
                            {"faults", Json::array()},       {"compiled_graphs", Json::array()},
                            {"provenance", Json::array()},   {"specializations", Json::array()},
                            {"autotuning", Json::array()},   {"runtime", Json::array()},
                            {"vllm_config", Json::array()},  {"vllm_piecewise", Json::array()},
                            {"vllm_passes", Json::array()},  {"environment", Json::array()},
                            {"config", Json::array()},       {"bytecode", Json::array()},
                            {"subgraphs", Json::array()}};
};

}  // namespace tlrt
