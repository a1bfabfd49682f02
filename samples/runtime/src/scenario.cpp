// Scenario registry and harness (see scenario.hpp).
#include "tlrt/scenario.hpp"

#include <chrono>
#include <filesystem>

#include "tlrt/ops.hpp"
#include "tlrt/program.hpp"
#include "tlrt/rank_scheduler.hpp"
#include "tlrt/tracer.hpp"

namespace tlrt {

const std::vector<ScenarioInfo>& scenarios() {
  static const std::vector<ScenarioInfo> list = {
      {"mlp", "clean compile of a small MLP, cache hits on every later step", 0, 5, scenario_mlp},
      {"graph-breaks", "item() and print() break the graph; resume frames compile the rest", 0, 4,
       scenario_graph_breaks},
      {"torch214",
       "graph-breaks with PyTorch 2.14's records: bytecode dumps per frame, a subgraph's artifacts",
       0, 2, scenario_torch214},
      {"recompiles",
       "dtype/stride/scalar/size guard failures, then a recompile storm hitting the cache limit", 0,
       12, scenario_recompiles},
      {"dynamic-shapes", "batch size changes; automatic dynamic shapes marks dim 0 as s0", 0, 6,
       scenario_dynamic_shapes},
      {"compile-failure", "a deliberately broken backend fails; the caller falls back to eager", 0,
       2, scenario_compile_failure},
      {"ddp", "data parallel 9-layer MLP: compiled step, DDP's bucketed gradient all_reduces", 4,
       10, scenario_ddp},
      {"ddp-compiled", "ddp with the bucket all_reduces inside the compiled graph", 4, 10,
       scenario_ddp_compiled},
      {"mesh-2d", "2x2 mesh: tensor parallel MLP (sharded weights) + data parallel gradients", 4, 5,
       scenario_mesh_2d},
      {"desync", "one rank issues a different collective (op/shape/dtype/order) at one step", 4, 6,
       scenario_desync},
      {"straggler", "one rank is delayed before one collective", 4, 6, scenario_straggler},
      {"hang", "one rank skips a collective; the others time out and exit cleanly", 4, 6,
       scenario_hang},
      {"shape-specialization",
       "x.size(0) read as an int specializes the dynamic batch dim; max-autotune metrics", 0, 4,
       scenario_shape_specialization},
      {"vllm-piecewise",
       "a vLLM-style backend: compilation config, piecewise compiles over a range and capture "
       "sizes, post-grad pass dumps",
       0, 3, scenario_vllm_piecewise},
      {"pair-identical", "compare: the same run twice (OUT/a, OUT/b, truth_diff.json)", 0, 2,
       scenario_pair_identical},
      {"pair-ids-shifted", "compare: the same run, B with other frame ids and pid", 0, 2,
       scenario_pair_ids_shifted},
      {"pair-graph-break", "compare: B's function breaks the graph on item()", 0, 2,
       scenario_pair_graph_break},
      {"pair-shape-recompile", "compare: B's second call has another batch size", 0, 2,
       scenario_pair_shape_recompile},
      {"pair-dtype-guard", "compare: B's second call passes float64 inputs", 0, 2,
       scenario_pair_dtype_guard},
      {"pair-desync", "compare: ddp, then the same job with a desync on rank 2", 4, 6,
       scenario_pair_desync},
      {"pair-moved-frame", "compare: B's function starts three lines further down", 0, 2,
       scenario_pair_moved_frame},
      {"pair-straggler", "compare: ddp, then the same job with rank 3 late once", 4, 6,
       scenario_pair_straggler},
      {"pair-warm-cache", "compare: a cold FX graph cache, then a warm one", 0, 2,
       scenario_pair_warm_cache},
      {"pair-grad-mode", "compare: B's second call runs under torch.no_grad()", 0, 2,
       scenario_pair_grad_mode},
      {"pair-dynamic-dim",
       "compare: automatic dynamic shapes off, then on: the batch dim goes symbolic", 0, 2,
       scenario_pair_dynamic_dim},
  };
  return list;
}

const ScenarioInfo* find_scenario(const std::string& name) {
  for (const auto& s : scenarios()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

ScenarioResult run_scenario(const std::string& name, ScenarioOptions o) {
  const ScenarioInfo* info = find_scenario(name);
  if (!info) throw std::invalid_argument("unknown scenario '" + name + "' (see --list)");
  if (info->default_ranks == 0) {
    if (o.ranks > 1)
      throw std::invalid_argument("scenario '" + name + "' runs as a single process; drop --ranks");
    o.ranks = 0;
  } else {
    if (o.ranks == 0) o.ranks = info->default_ranks;
    if (o.ranks < 2 || o.ranks > kMaxRanks)
      throw std::invalid_argument("--ranks must be between 2 and " + std::to_string(kMaxRanks));
  }
  if (o.steps == 0) o.steps = info->default_steps;
  if (o.timeout_ms == 0) o.timeout_ms = name == "hang" ? 300 : 10000;
  if (o.timeout_ms < 1) throw std::invalid_argument("--timeout-ms must be positive");
  if (o.steps < 1) throw std::invalid_argument("--steps must be positive");
  return info->run(o);
}

ScenarioResult run_single(const ScenarioOptions& o, const std::string& scenario,
                          const std::function<void(Process&, ScenarioResult&)>& body) {
  auto t0 = std::chrono::steady_clock::now();
  ScenarioResult r;
  Truth truth;
  {
    Process proc(o.out_dir, -1, nullptr, &truth, random_suffix());
    Process::set_current(&proc);
    try {
      body(proc, r);
    } catch (...) {
      Process::set_current(nullptr);
      throw;
    }
    proc.finish();
    r.logs.push_back(proc.log->path());
    r.records = proc.log->records();
    Process::set_current(nullptr);
  }
  r.truth_path = (std::filesystem::path(o.out_dir) / "truth.json").string();
  truth.write(r.truth_path, scenario, 0, o.seed, o.steps);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

ScenarioResult run_ranks(const ScenarioOptions& o, const std::string& scenario, int ranks,
                         const std::function<void(World&)>& setup,
                         const std::function<void(Process&, World&)>& body,
                         const std::function<void(Truth&, ScenarioResult&)>& check) {
  auto t0 = std::chrono::steady_clock::now();
  ScenarioResult r;
  Truth truth;
  World world(ranks, o.timeout_ms);
  setup(world);
  std::vector<std::unique_ptr<Process>> procs;
  for (int i = 0; i < ranks; ++i) {
    procs.push_back(std::make_unique<Process>(o.out_dir, i, &world, &truth, random_suffix()));
  }
  RankScheduler sched(ranks);
  std::vector<std::string> errors = sched.run(
      [&](int i) {
        Process& p = *procs[static_cast<size_t>(i)];
        try {
          body(p, world);
        } catch (const CollectiveTimeout&) {
          // The hang was logged by the backend; the rank exits cleanly like a watchdog abort.
        }
        p.finish();
        // The log stays closed until the end (each spill reopens it): open files stay bounded.
      },
      [&](int i) {
        // Every resume installs this rank's process; a parked rank restores its tracer and kernel
        // depth itself (collectives.cpp), a starting one begins with none.
        Process::set_current(procs[static_cast<size_t>(i)].get());
        Tracer::set_active(nullptr);
        set_kernel_depth(0);
      });
  Process::set_current(nullptr);
  for (int i = 0; i < ranks; ++i) {
    if (!errors[i].empty())
      throw std::runtime_error("rank " + std::to_string(i) + ": " + errors[i]);
    r.logs.push_back(procs[i]->log->path());
    r.records += procs[i]->log->records();
  }
  procs.clear();
  check(truth, r);
  r.truth_path = (std::filesystem::path(o.out_dir) / "truth.json").string();
  truth.write(r.truth_path, scenario, ranks, o.seed, o.steps);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

bool same_tensors(const Env& a, const Env& b, std::string& detail, double rtol, double atol) {
  for (const auto& [name, v] : a.vars()) {
    const Tensor* ta = std::get_if<Tensor>(&v);
    if (!ta) continue;
    if (!b.has(name)) {
      detail = "variable '" + name + "' missing";
      return false;
    }
    const Tensor& tb = b.t(name);
    if (!allclose(*ta, tb, rtol, atol)) {
      detail = "variable '" + name + "' differs (" + shape_str(ta->sizes()) + " vs " +
               shape_str(tb.sizes()) + ")";
      return false;
    }
  }
  return true;
}

}  // namespace tlrt
