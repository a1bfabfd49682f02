// Named scenarios of tlscope-sample and the harness that runs a body as one process or as N ranks
// (fibers of one RankScheduler), each with its own trace log, and writes truth.json.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tlrt/collectives.hpp"
#include "tlrt/process.hpp"
#include "tlrt/program.hpp"
#include "tlrt/truth.hpp"

namespace tlrt {

// The largest --ranks: ranks are fibers with a small stack and a buffered log each, so thousands
// fit in one process; the bound keeps a typo from asking for millions.
constexpr int kMaxRanks = 4096;

struct ScenarioOptions {
  std::string out_dir = "tlscope-trace";
  int ranks = 0;  // 0: the scenario's default
  int steps = 0;  // 0: the scenario's default
  uint64_t seed = 1;
  // Collective timeout; 0: 300 ms for the hang scenario, 10 s elsewhere (so a loaded machine never
  // turns a slow peer into a false hang).
  int timeout_ms = 0;
  std::string desync_kind = "op";  // desync: op, shape, dtype or order
};

struct ScenarioResult {
  bool compiled_matches_eager = true;
  std::string detail;  // what differed, when something did
  std::vector<std::string> logs;
  std::string truth_path;
  int64_t records = 0;
  double seconds = 0;
};

struct ScenarioInfo {
  std::string name;
  std::string description;
  int default_ranks;  // 0: single process (no rank in file names)
  int default_steps;
  std::function<ScenarioResult(const ScenarioOptions&)> run;
};

const std::vector<ScenarioInfo>& scenarios();
const ScenarioInfo* find_scenario(const std::string& name);
// Runs a named scenario, filling ranks/steps left at 0 with its defaults. Throws
// std::invalid_argument for an unknown name or options the scenario cannot honour.
ScenarioResult run_scenario(const std::string& name, ScenarioOptions o);

// Harness. The body runs with Process::current() installed; the result collects log paths.
ScenarioResult run_single(const ScenarioOptions& o, const std::string& scenario,
                          const std::function<void(Process&, ScenarioResult&)>& body);
// `setup` creates process groups before the ranks start; `body` runs on every rank. A rank whose
// collective times out stops its body cleanly (its log keeps the timed_out record).
ScenarioResult run_ranks(const ScenarioOptions& o, const std::string& scenario, int ranks,
                         const std::function<void(World&)>& setup,
                         const std::function<void(Process&, World&)>& body,
                         const std::function<void(Truth&, ScenarioResult&)>& check);

// Every tensor variable of `a` equals (allclose) the one in `b`; fills detail otherwise.
bool same_tensors(const Env& a, const Env& b, std::string& detail, double rtol = 1e-5,
                  double atol = 1e-6);

// Scenario entry points (samples/programs/*.cpp).
ScenarioResult scenario_mlp(const ScenarioOptions& o);
ScenarioResult scenario_graph_breaks(const ScenarioOptions& o);
ScenarioResult scenario_torch214(const ScenarioOptions& o);
ScenarioResult scenario_recompiles(const ScenarioOptions& o);
ScenarioResult scenario_dynamic_shapes(const ScenarioOptions& o);
ScenarioResult scenario_compile_failure(const ScenarioOptions& o);
ScenarioResult scenario_ddp(const ScenarioOptions& o);
ScenarioResult scenario_ddp_compiled(const ScenarioOptions& o);
ScenarioResult scenario_mesh_2d(const ScenarioOptions& o);
ScenarioResult scenario_desync(const ScenarioOptions& o);
ScenarioResult scenario_straggler(const ScenarioOptions& o);
ScenarioResult scenario_hang(const ScenarioOptions& o);
ScenarioResult scenario_shape_specialization(const ScenarioOptions& o);
ScenarioResult scenario_vllm_piecewise(const ScenarioOptions& o);
// Paired runs for compare (samples/programs/pairs.cpp): OUT/a, OUT/b and OUT/truth_diff.json.
ScenarioResult scenario_pair_identical(const ScenarioOptions& o);
ScenarioResult scenario_pair_ids_shifted(const ScenarioOptions& o);
ScenarioResult scenario_pair_graph_break(const ScenarioOptions& o);
ScenarioResult scenario_pair_shape_recompile(const ScenarioOptions& o);
ScenarioResult scenario_pair_dtype_guard(const ScenarioOptions& o);
ScenarioResult scenario_pair_desync(const ScenarioOptions& o);
ScenarioResult scenario_pair_moved_frame(const ScenarioOptions& o);
ScenarioResult scenario_pair_straggler(const ScenarioOptions& o);
ScenarioResult scenario_pair_warm_cache(const ScenarioOptions& o);
ScenarioResult scenario_pair_grad_mode(const ScenarioOptions& o);
ScenarioResult scenario_pair_dynamic_dim(const ScenarioOptions& o);

}  // namespace tlrt
