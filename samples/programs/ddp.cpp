// Sample programs "ddp", "desync", "straggler" and "hang": data-parallel training of a 3-layer
// MLP. Each rank runs the compiled forward+backward step on its shard of the batch, then a
// DDP-style reducer all_reduces every gradient (eager, like DDP's hooks) and applies SGD. The final
// parameters must equal full-batch gradient descent computed in one process.
#include <atomic>
#include <mutex>

#include "tlrt/compiler.hpp"
#include "tlrt/dtensor.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

namespace {

const char* kParams[] = {"w1", "b1", "w2", "b2", "w3", "b3"};
constexpr int kIn = 16, kHidden = 32, kOut = 4, kLocalBatch = 8;
constexpr double kLr = 0.05;

// Forward and hand-written backward of relu(relu(x@w1+b1)@w2+b2)@w3+b3 under a mean-squared loss.
Program train_step() {
  Program p("train_step", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h1", relu(matmul(env.t("x"), env.t("w1")) + env.t("b1"))));
  TLRT_STMT(p, env.set("h2", relu(matmul(env.t("h1"), env.t("w2")) + env.t("b2"))));
  TLRT_STMT(p, env.set("o", matmul(env.t("h2"), env.t("w3")) + env.t("b3")));
  TLRT_STMT(p, env.set("loss", mean(pow(env.t("o") - env.t("y"), 2.0))));
  TLRT_STMT(p, env.set("d_o", mul(env.t("o") - env.t("y"),
                                  2.0 / static_cast<double>(env.t("o").numel()))));
  TLRT_STMT(p, env.set("g_w3", matmul(transpose(env.t("h2"), 0, 1), env.t("d_o"))));
  TLRT_STMT(p, env.set("g_b3", sum(env.t("d_o"), {0})));
  TLRT_STMT(p, env.set("d_h2", matmul(env.t("d_o"), transpose(env.t("w3"), 0, 1)) *
                                   to(gt(env.t("h2"), 0.0), DType::f32)));
  TLRT_STMT(p, env.set("g_w2", matmul(transpose(env.t("h1"), 0, 1), env.t("d_h2"))));
  TLRT_STMT(p, env.set("g_b2", sum(env.t("d_h2"), {0})));
  TLRT_STMT(p, env.set("d_h1", matmul(env.t("d_h2"), transpose(env.t("w2"), 0, 1)) *
                                   to(gt(env.t("h1"), 0.0), DType::f32)));
  TLRT_STMT(p, env.set("g_w1", matmul(transpose(env.t("x"), 0, 1), env.t("d_h1"))));
  TLRT_STMT(p, env.set("g_b1", sum(env.t("d_h1"), {0})));
  return p;
}

Env init_params(uint64_t seed) {
  Rng rng(seed);
  Env p;
  p.set("w1", rng.randn({kIn, kHidden}, 0.3));
  p.set("b1", rng.randn({kHidden}, 0.05));
  p.set("w2", rng.randn({kHidden, kHidden}, 0.2));
  p.set("b2", rng.randn({kHidden}, 0.05));
  p.set("w3", rng.randn({kHidden, kOut}, 0.2));
  p.set("b3", rng.randn({kOut}, 0.05));
  return p;
}

// Batch of a step for the whole job; rank r uses rows [r*kLocalBatch, (r+1)*kLocalBatch).
std::pair<Tensor, Tensor> global_batch(uint64_t seed, int step, int ranks) {
  Rng rng(seed * 7919 + static_cast<uint64_t>(step) + 1);
  Tensor x = rng.randn({static_cast<int64_t>(ranks) * kLocalBatch, kIn});
  Tensor y = tanh(slice(x, 1, 0, kOut) * 1.5);
  return {x, y};
}

void sgd(Env& params, const Env& grads, double scale) {
  for (const char* name : kParams) {
    params.set(name, params.t(name) - mul(grads.t(std::string("g_") + name), kLr * scale));
  }
}

// Full-batch gradient descent in one process: what DDP must reproduce.
Env reference(uint64_t seed, int ranks, int steps) {
  Env params = init_params(seed);
  Program prog = train_step();
  for (int s = 0; s < steps; ++s) {
    auto [x, y] = global_batch(seed, s, ranks);
    Env env = params;
    env.set("x", x);
    env.set("y", y);
    prog.run_eager(env);
    sgd(params, env, 1.0);
  }
  return params;
}

enum class Fault { none, desync, straggler, missing };

struct FaultPlan {
  Fault kind = Fault::none;
  int rank = 2;
  int step = 2;
  std::string desync_kind = "op";
  std::atomic<bool> recorded{false};
};

void ddp_rank(Process& proc, World& world, const ScenarioOptions& o, int steps, FaultPlan& fault,
              std::vector<Env>& finals, std::mutex& mu) {
  int rank = proc.rank, n = world.size();
  const ProcessGroup& pg = world.world_group();
  Env params = init_params(o.seed);
  // Rank 0's initial parameters are broadcast, as DDP does at construction.
  for (const char* name : kParams) params.set(name, world.broadcast(pg, params.t(name)).out);
  log_tensor_values("b3", params.t("b3"));
  Program prog = train_step();
  CompiledFunction step_fn(prog);
  for (int s = 0; s < steps; ++s) {
    if (fault.kind == Fault::missing && rank == fault.rank && s == fault.step) {
      // This rank leaves the loop early: its peers wait for a collective that never comes.
      Json f = Json::object();
      f.set("kind", "missing").set("pg_name", pg.name);
      f.set("step", s).set("ranks", Json(Json::Array{Json(rank)}));
      Json others = Json::array();
      for (int r = 0; r < n; ++r) {
        if (r != rank) others.push(r);
      }
      f.set("other_ranks", others).set("seq", static_cast<int64_t>(6 + s * 7 + 1));
      proc.truth->add("faults", f);
      return;
    }
    auto [gx, gy] = global_batch(o.seed, s, n);
    Env env = params;
    env.set("x", contiguous(slice(gx, 0, rank * kLocalBatch, (rank + 1) * kLocalBatch)));
    env.set("y", contiguous(slice(gy, 0, rank * kLocalBatch, (rank + 1) * kLocalBatch)));
    step_fn(env);
    // DDP reducer: one bucket per parameter, in reverse order of use (gradients ready last-first).
    std::vector<std::string> order = {"g_b3", "g_w3", "g_b2", "g_w2", "g_b1", "g_w1"};
    bool fault_here = fault.kind == Fault::desync && rank == fault.rank && s == fault.step;
    if (fault_here && fault.desync_kind == "order") std::swap(order[0], order[1]);
    Env grads;
    for (size_t b = 0; b < order.size(); ++b) {
      const std::string& g = order[b];
      Tensor t = env.t(g);
      CollectiveResult res;
      std::string detail;
      if (fault_here && b == 0 && fault.desync_kind == "op") {
        res = world.all_gather(pg, t);
        detail = "all_gather vs all_reduce";
      } else if (fault_here && b == 0 && fault.desync_kind == "shape") {
        res = world.all_reduce(pg, contiguous(slice(t, 0, 0, t.size(0) - 1)));
        detail = "input_sizes differ";
      } else if (fault_here && b == 0 && fault.desync_kind == "dtype") {
        res = world.all_reduce(pg, to(t, DType::f64));
        detail = "float64 vs float32";
      } else {
        res = world.all_reduce(pg, t);
        detail = "collective order swapped";
      }
      if (fault_here && b < (fault.desync_kind == "order" ? 2u : 1u)) {
        Json f = Json::object();
        f.set("kind", "desync")
            .set("desync_kind", fault.desync_kind)
            .set("pg_name", pg.name)
            .set("seq", res.seq);
        f.set("step", s).set("ranks", Json(Json::Array{Json(rank)}));
        Json others = Json::array();
        for (int r = 0; r < n; ++r) {
          if (r != rank) others.push(r);
        }
        f.set("other_ranks", others).set("detail", detail);
        proc.truth->add("faults", f);
      }
      grads.set(g, res.mismatch ? t : res.out);
    }
    sgd(params, grads, 1.0 / n);
    world.all_reduce(pg, env.t("loss"));  // the logged training loss
  }
  world.barrier(pg);
  log_tensor_values("b3", params.t("b3"));
  std::lock_guard<std::mutex> lock(mu);
  finals[static_cast<size_t>(rank)] = params;
}

ScenarioResult run_ddp_family(const ScenarioOptions& o, const std::string& name, Fault kind) {
  int n = o.ranks, steps = o.steps;
  FaultPlan fault;
  fault.kind = kind;
  fault.rank = std::min(n - 1, kind == Fault::straggler ? 3 : kind == Fault::missing ? 1 : 2);
  fault.step = std::min(steps - 1, 2);
  fault.desync_kind = o.desync_kind;
  std::vector<Env> finals(static_cast<size_t>(n));
  std::mutex mu;
  // The collective the straggler is late for: the first gradient all_reduce of fault.step
  // (6 broadcasts, then 7 collectives per step, 1-based).
  int64_t straggle_seq = 6 + static_cast<int64_t>(fault.step) * 7 + 1;
  int delay_ms = 60;
  return run_ranks(
      o, name, n,
      [&](World& w) {
        if (kind == Fault::straggler) w.add_straggler(fault.rank, "0", straggle_seq, delay_ms);
      },
      [&](Process& p, World& w) { ddp_rank(p, w, o, steps, fault, finals, mu); },
      [&](Truth& truth, ScenarioResult& r) {
        if (kind == Fault::straggler) {
          Json f = Json::object();
          f.set("kind", "straggler").set("pg_name", "0").set("seq", straggle_seq);
          f.set("ranks", Json(Json::Array{Json(fault.rank)})).set("delay_ms", delay_ms);
          truth.add("faults", f);
        }
        if (kind == Fault::none || kind == Fault::straggler) {
          Env ref = reference(o.seed, n, steps);
          for (int rank = 0; rank < n; ++rank) {
            std::string detail;
            if (!same_tensors(ref, finals[static_cast<size_t>(rank)], detail, 1e-4, 1e-5)) {
              r.compiled_matches_eager = false;
              r.detail = "rank " + std::to_string(rank) + ": " + detail;
            }
          }
        }
      });
}

}  // namespace

ScenarioResult scenario_ddp(const ScenarioOptions& o) {
  return run_ddp_family(o, "ddp", Fault::none);
}
ScenarioResult scenario_desync(const ScenarioOptions& o) {
  return run_ddp_family(o, "desync", Fault::desync);
}
ScenarioResult scenario_straggler(const ScenarioOptions& o) {
  return run_ddp_family(o, "straggler", Fault::straggler);
}
ScenarioResult scenario_hang(const ScenarioOptions& o) {
  return run_ddp_family(o, "hang", Fault::missing);
}

}  // namespace tlrt
