// Sample programs "ddp", "ddp-compiled", "desync", "straggler" and "hang": data-parallel training
// of a 9-layer MLP the way DistributedDataParallel runs it. Rank 0's parameters are broadcast once
// (coalesced into one flat buffer, as _sync_module_states does); each step runs the compiled
// forward+backward on the rank's shard of the batch, then the reducer all_reduces the gradients
// bucket by bucket (flattened, reverse parameter order, sized by bucket_cap_mb), SGD updates the
// parameters and the loss is all_reduced for logging (ddp-compiled: the bucket all_reduces run
// inside the compiled graph). The final parameters must equal full-batch gradient descent.
#include <mutex>

#include "tlrt/compiler.hpp"
#include "tlrt/dtensor.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

namespace {

// Layers 1..kLayers-1 are Linear+ReLU, layer kLayers the Linear output.
constexpr int kIn = 16, kHidden = 32, kOut = 4, kLayers = 9, kLocalBatch = 8;
constexpr double kLr = 0.05;
// DDP(model, bucket_cap_mb=0.004): the cap is scaled to this 32 KB model so that the reducer
// issues several buckets per step, as the default 25 MB does for a model a thousand times larger.
constexpr double kBucketCapMb = 0.004;

std::string num(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

// module.parameters() order: w1, b1, w2, b2, ...
std::vector<std::string> param_names() {
  std::vector<std::string> names;
  for (int i = 1; i <= kLayers; ++i) {
    names.push_back(num("w", i));
    names.push_back(num("b", i));
  }
  return names;
}

Env init_params(uint64_t seed) {
  Rng rng(seed);
  Env p;
  for (int i = 1; i <= kLayers; ++i) {
    int64_t fan_in = i == 1 ? kIn : kHidden, fan_out = i == kLayers ? kOut : kHidden;
    // Scale 0.25 keeps ReLU activations at about unit variance through the 32-wide layers.
    p.set(num("w", i), rng.randn({fan_in, fan_out}, i == 1 ? 0.3 : 0.25));
    p.set(num("b", i), rng.randn({fan_out}, 0.05));
  }
  return p;
}

// DDP's bucket assignment (_compute_bucket_assignment_by_size with an explicit bucket_cap_mb):
// parameters in reverse order, a bucket closes as soon as its size reaches the cap.
std::vector<std::vector<std::string>> compute_bucket_plan() {
  const int64_t cap = static_cast<int64_t>(kBucketCapMb * 1024 * 1024);
  Env params = init_params(0);
  std::vector<std::string> names = param_names();
  std::vector<std::vector<std::string>> buckets(1);
  int64_t bytes = 0;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    buckets.back().push_back(*it);
    bytes += params.t(*it).numel() * dtype_itemsize(DType::f32);
    if (bytes >= cap && std::next(it) != names.rend()) {
      buckets.emplace_back();
      bytes = 0;
    }
  }
  return buckets;
}

const std::vector<std::vector<std::string>>& bucket_plan() {
  static const std::vector<std::vector<std::string>> plan = compute_bucket_plan();
  return plan;
}

Tensor flatten(const Env& env, const std::vector<std::string>& names, const std::string& prefix) {
  std::vector<Tensor> flat;
  for (const auto& n : names) {
    const Tensor& t = env.t(prefix + n);
    flat.push_back(reshape(t, {t.numel()}));
  }
  return cat(flat, 0);
}

// Copies the pieces of a flat buffer back into `env` under the names' shapes (like unflatten).
void unflatten(const Tensor& flat, const Env& like, const std::vector<std::string>& names,
               const std::string& prefix, Env& out) {
  int64_t off = 0;
  for (const auto& n : names) {
    const Tensor& t = like.t(prefix + n);
    out.set(prefix + n, reshape(contiguous(slice(flat, 0, off, off + t.numel())), t.sizes()));
    off += t.numel();
  }
}

// Forward and hand-written backward under a mean-squared loss. The layer loops unroll into the
// graph as Dynamo unrolls `for layer in self.layers`, so a loop's nodes share its source line.
// With `reducer_in_graph` (ddp-compiled) the bucket all_reduces are traced into the graph too, as
// compiled autograd does with DDP's Python reducer: the graph's outputs bucket0.. are reduced.
Program train_step(bool reducer_in_graph = false) {
  Program p("train_step", __FILE__, __LINE__);
  for (int i = 1; i <= kLayers; ++i) {
    std::string in = i == 1 ? std::string("x") : num("h", i - 1), out = num("h", i);
    std::string w = num("w", i), b = num("b", i);
    if (i < kLayers) {
      TLRT_STMT_CAPTURE(p, env.set(out, relu(matmul(env.t(in), env.t(w)) + env.t(b))));
    } else {
      TLRT_STMT_CAPTURE(p, env.set("o", matmul(env.t(in), env.t(w)) + env.t(b)));
    }
  }
  TLRT_STMT(p, env.set("loss", mean(pow(env.t("o") - env.t("y"), 2.0))));
  TLRT_STMT(p, env.set("d_o", mul(env.t("o") - env.t("y"),
                                  2.0 / static_cast<double>(env.t("o").numel()))));
  // Last layer first: the order in which autograd makes gradients ready.
  for (int i = kLayers; i >= 1; --i) {
    std::string in = i == 1 ? std::string("x") : num("h", i - 1);
    std::string d = i == kLayers ? std::string("d_o") : num("d_h", i);
    std::string w = num("w", i), gw = num("g_w", i), gb = num("g_b", i), prev = num("d_h", i - 1);
    TLRT_STMT_CAPTURE(p, env.set(gw, matmul(transpose(env.t(in), 0, 1), env.t(d))));
    TLRT_STMT_CAPTURE(p, env.set(gb, sum(env.t(d), {0})));
    if (i > 1) {
      TLRT_STMT_CAPTURE(p, env.set(prev, matmul(env.t(d), transpose(env.t(w), 0, 1)) *
                                             to(gt(env.t(in), 0.0), DType::f32)));
    }
  }
  if (reducer_in_graph) {
    for (size_t k = 0; k < bucket_plan().size(); ++k) {
      std::vector<std::string> bucket = bucket_plan()[k];
      std::string out = num("bucket", static_cast<int>(k));
      TLRT_STMT_CAPTURE(p, env.set(out, all_reduce(flatten(env, bucket, "g_"), env.str("pg"))));
    }
  }
  return p;
}

// The collectives of one training step: one all_reduce per bucket, then the loss all_reduce.
// Before step 0: the one coalesced broadcast.
int64_t first_bucket_seq(int step) {
  return 1 + static_cast<int64_t>(step) * (static_cast<int64_t>(bucket_plan().size()) + 1) + 1;
}

// Rank r's shard of a step's global batch (rows [r*kLocalBatch, (r+1)*kLocalBatch)), drawn from
// its own stream as a DistributedSampler hands each rank its indices: the cost per rank stays the
// same at 4,096 ranks as at 4.
std::pair<Tensor, Tensor> local_batch(uint64_t seed, int step, int rank) {
  Rng rng(seed * 7919 + static_cast<uint64_t>(step) + 1 + (static_cast<uint64_t>(rank) << 32));
  Tensor x = rng.randn({kLocalBatch, kIn});
  Tensor y = tanh(slice(x, 1, 0, kOut) * 1.5);
  return {x, y};
}

// The whole batch of a step, the ranks' shards in rank order (for the one-process reference).
std::pair<Tensor, Tensor> global_batch(uint64_t seed, int step, int ranks) {
  std::vector<Tensor> xs, ys;
  for (int r = 0; r < ranks; ++r) {
    auto [x, y] = local_batch(seed, step, r);
    xs.push_back(x);
    ys.push_back(y);
  }
  return {cat(xs, 0), cat(ys, 0)};
}

void sgd(Env& params, const Env& grads, double scale) {
  for (const auto& name : param_names()) {
    params.set(name, params.t(name) - mul(grads.t("g_" + name), kLr * scale));
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
  bool reducer_in_graph = false;  // ddp-compiled: no fault, the buckets are reduced in the graph
  int rank = 2;
  int step = 2;
  std::string desync_kind = "op";
};

Json other_ranks(int rank, int n) {
  Json others = Json::array();
  for (int r = 0; r < n; ++r) {
    if (r != rank) others.push(r);
  }
  return others;
}

// All-reduces the gradient buckets (the DDP reducer; eager, like its autograd hooks) into `grads`.
// A desynchronised rank issues its first bucket differently (or its first two swapped).
void reduce_buckets(Process& proc, World& world, const Env& env, int step, const FaultPlan& fault,
                    Env& grads) {
  int rank = proc.rank, n = world.size();
  const ProcessGroup& pg = world.world_group();
  std::vector<std::vector<std::string>> buckets = bucket_plan();
  bool fault_here = fault.kind == Fault::desync && rank == fault.rank && step == fault.step;
  if (fault_here && fault.desync_kind == "order") std::swap(buckets[0], buckets[1]);
  for (size_t b = 0; b < buckets.size(); ++b) {
    Tensor flat = flatten(env, buckets[b], "g_");
    CollectiveResult res;
    std::string detail = "collective order swapped";
    if (fault_here && b == 0 && fault.desync_kind == "op") {
      res = world.all_gather(pg, flat);
      detail = "all_gather vs all_reduce";
    } else if (fault_here && b == 0 && fault.desync_kind == "shape") {
      res = world.all_reduce(pg, contiguous(slice(flat, 0, 0, flat.size(0) - 1)));
      detail = "input_sizes differ";
    } else if (fault_here && b == 0 && fault.desync_kind == "dtype") {
      res = world.all_reduce(pg, to(flat, DType::f64));
      detail = "float64 vs float32";
    } else {
      res = world.all_reduce(pg, flat);
    }
    if (fault_here && b < (fault.desync_kind == "order" ? 2u : 1u)) {
      Json f = Json::object();
      f.set("kind", "desync").set("desync_kind", fault.desync_kind).set("pg_name", pg.name);
      f.set("seq", res.seq).set("step", step).set("ranks", Json(Json::Array{Json(rank)}));
      f.set("other_ranks", other_ranks(rank, n)).set("detail", detail);
      proc.truth->add("faults", f);
    }
    // When the ranks disagreed no data moved: the rank keeps its local gradients.
    unflatten(res.mismatch ? flat : res.out, env, buckets[b], "g_", grads);
  }
}

void ddp_rank(Process& proc, World& world, const ScenarioOptions& o, int steps,
              const FaultPlan& fault, std::vector<Env>& finals, std::mutex& mu) {
  int rank = proc.rank, n = world.size();
  const ProcessGroup& pg = world.world_group();
  std::vector<std::string> names = param_names();
  Env params = init_params(o.seed + static_cast<uint64_t>(rank));
  {
    // Every rank starts from rank 0's parameters, as DDP's constructor ensures.
    Env synced;
    unflatten(world.broadcast(pg, flatten(params, names, "")).out, params, names, "", synced);
    params = synced;
  }
  log_tensor_values(num("b", kLayers), params.t(num("b", kLayers)));
  Program prog = train_step(fault.reducer_in_graph);
  CompiledFunction step_fn(prog);
  for (int s = 0; s < steps; ++s) {
    if (fault.kind == Fault::missing && rank == fault.rank && s == fault.step) {
      // This rank leaves the loop early: its peers wait for a collective that never comes.
      Json f = Json::object();
      f.set("kind", "missing").set("pg_name", pg.name);
      f.set("step", s).set("ranks", Json(Json::Array{Json(rank)}));
      f.set("other_ranks", other_ranks(rank, n)).set("seq", first_bucket_seq(s));
      proc.truth->add("faults", f);
      return;
    }
    RecordFunction step_span(num("ProfilerStep#", s));
    auto [x, y] = local_batch(o.seed, s, rank);
    Env env = params;
    env.set("x", x);
    env.set("y", y);
    env.set("pg", pg.name);
    step_fn(env);
    Env grads;
    if (fault.reducer_in_graph) {
      for (size_t k = 0; k < bucket_plan().size(); ++k)
        unflatten(env.t(num("bucket", static_cast<int>(k))), env, bucket_plan()[k], "g_", grads);
    } else {
      reduce_buckets(proc, world, env, s, fault, grads);
    }
    {
      RecordFunction opt("Optimizer.step#SGD.step");
      sgd(params, grads, 1.0 / n);
    }
    world.all_reduce(pg, env.t("loss"));  // the logged training loss
  }
  world.barrier(pg);
  log_tensor_values(num("b", kLayers), params.t(num("b", kLayers)));
  std::lock_guard<std::mutex> lock(mu);
  finals[static_cast<size_t>(rank)] = params;
}

ScenarioResult run_ddp_family(const ScenarioOptions& o, const std::string& name, Fault kind,
                              bool reducer_in_graph = false) {
  int n = o.ranks, steps = o.steps;
  FaultPlan fault;
  fault.kind = kind;
  fault.reducer_in_graph = reducer_in_graph;
  fault.rank = std::min(n - 1, kind == Fault::straggler ? 3 : kind == Fault::missing ? 1 : 2);
  fault.step = std::min(steps - 1, 2);
  fault.desync_kind = o.desync_kind;
  std::vector<Env> finals(static_cast<size_t>(n));
  std::mutex mu;
  // The straggler is late for the first gradient bucket of fault.step.
  int64_t straggle_seq = first_bucket_seq(fault.step);
  int delay_ms = 400;  // far above the gaps between ranks' arrivals on a loaded CI machine
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
ScenarioResult scenario_ddp_compiled(const ScenarioOptions& o) {
  return run_ddp_family(o, "ddp-compiled", Fault::none, true);
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
