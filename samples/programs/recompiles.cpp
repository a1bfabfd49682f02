// Sample programs "recompiles", "dynamic-shapes", "shape-specialization" and "compile-failure":
// guard failures of every kind (dtype, stride, scalar value, size), automatic dynamic shapes, a
// recompile storm that hits the cache limit, a dynamic dim specialized away, and a backend that
// fails.
#include "tlrt/compiler.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

static Program scaled_relu() {
  Program p("scaled_relu", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("y", relu(mul(env.t("x"), env.num("scale"))) + 1.0));
  TLRT_STMT(p, env.set("z", sum(env.t("y"), {0})));
  return p;
}

static Program step_decay() {
  Program p("step_decay", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("y", mul(env.t("x"), 1.0 / (1.0 + env.num("step")))));
  return p;
}

static void check(const Program& prog, CompiledFunction& fn, Env env, ScenarioResult& r) {
  Env eager = env;
  fn(env);
  prog.run_eager(eager);
  if (!same_tensors(eager, env, r.detail)) r.compiled_matches_eager = false;
}

ScenarioResult scenario_recompiles(const ScenarioOptions& o) {
  return run_single(o, "recompiles", [&](Process& proc, ScenarioResult& r) {
    Rng rng(o.seed);
    Program prog = scaled_relu();
    CompiledFunction fn(prog);
    auto call = [&](Tensor x, double scale) {
      Env env;
      env.set("x", x);
      env.set("scale", scale);
      check(prog, fn, env, r);
    };
    Tensor x = rng.randn({4, 8});
    call(x, 1.0);                                   // 0/0
    call(x, 1.0);                                   // cache hit
    call(to(x, DType::f64), 1.0);                   // 0/1: dtype mismatch
    call(transpose(rng.randn({8, 4}), 0, 1), 1.0);  // 0/2: stride mismatch
    call(x, 2.0);                                   // 0/3: scalar guard
    call(rng.randn({6, 8}), 2.0);                   // 0/4: size mismatch -> dim 0 dynamic
    call(rng.randn({10, 8}), 2.0);                  // hit on the dynamic entry

    // Recompile storm: a Python float argument that changes every call.
    Program storm = step_decay();
    CompiledFunction sfn(storm);
    Tensor y = rng.randn({4, 4});
    int limit = 8;
    for (int step = 0; step < std::max(o.steps, limit + 2); ++step) {
      Env env;
      env.set("x", y);
      env.set("step", static_cast<double>(step));
      check(storm, sfn, env, r);
    }
    Json f = Json::object();
    f.set("kind", "recompile_storm")
        .set("ranks", Json(Json::Array{Json(proc.rank < 0 ? 0 : proc.rank)}));
    f.set("frame", "step_decay").set("limit", limit);
    proc.truth->add("faults", f);
  });
}

static Program norm_block() {
  Program p("norm_block", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h", layer_norm(env.t("x"), env.t("g"), env.t("b"))));
  TLRT_STMT(p, env.set("out", matmul(relu(env.t("h")), env.t("w"))));
  return p;
}

ScenarioResult scenario_dynamic_shapes(const ScenarioOptions& o) {
  return run_single(o, "dynamic-shapes", [&](Process&, ScenarioResult& r) {
    Rng rng(o.seed);
    Program prog = norm_block();
    CompiledFunction fn(prog);
    const int64_t batches[] = {4, 6, 10, 12, 14, 18, 22, 26};
    for (int step = 0; step < o.steps; ++step) {
      Env env;
      env.set("x", rng.randn({batches[step % 8], 16}));
      env.set("g", full({16}, 1.0));
      env.set("b", full({16}, 0.0));
      env.set("w", rng.randn({16, 5}, 0.3));
      check(prog, fn, env, r);
    }
  });
}

static Program batch_mean() {
  Program p("batch_mean", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h", relu(env.t("x"))));
  TLRT_STMT(p, env.set("y", mul(sum(env.t("h"), {0}), 1.0 / env.size("x", 0))));
  return p;
}

// The batch dim becomes dynamic on the first size change, and the program then divides by
// x.size(0) as a Python int, which specializes the symbol again: every new batch size recompiles.
// Compiled with max-autotune, so each compile also logs its kernels' autotuning and runtime.
ScenarioResult scenario_shape_specialization(const ScenarioOptions& o) {
  return run_single(o, "shape-specialization", [&](Process&, ScenarioResult& r) {
    Rng rng(o.seed);
    Program prog = batch_mean();
    CompileOptions tuned;
    tuned.autotune = true;
    CompiledFunction fn(prog, tuned);
    const int64_t batches[] = {4, 6, 8};
    for (int step = 0; step < o.steps; ++step) {
      Env env;
      env.set("x", rng.randn({batches[step % 3], 16}));
      check(prog, fn, env, r);
    }
  });
}

static Program attention_scores() {
  Program p("attention_scores", __FILE__, __LINE__);
  TLRT_STMT(p,
            env.set("s", softmax(mul(matmul(env.t("q"), transpose(env.t("k"), 0, 1)), 0.5), -1)));
  return p;
}

ScenarioResult scenario_compile_failure(const ScenarioOptions& o) {
  return run_single(o, "compile-failure", [&](Process& proc, ScenarioResult& r) {
    Rng rng(o.seed);
    Program bad = attention_scores();
    CompileOptions broken;
    broken.backend = "broken_backend";
    CompiledFunction failing(bad, broken);
    Env env;
    env.set("q", rng.randn({4, 8}));
    env.set("k", rng.randn({4, 8}));
    Env eager = env;
    try {
      failing(env);
      r.compiled_matches_eager = false;
      r.detail = "broken_backend did not fail";
    } catch (const CompileError& e) {
      // As a user would: fall back to eager.
      bad.run_eager(env);
      Json f = Json::object();
      f.set("kind", "compile_failure")
          .set("ranks", Json(Json::Array{Json(0)}))
          .set("compile_id", e.compile_id);
      proc.truth->add("faults", f);
    }
    bad.run_eager(eager);
    if (!same_tensors(eager, env, r.detail)) r.compiled_matches_eager = false;
    // The same program with the working backend compiles fine afterwards.
    Program good = attention_scores();
    CompiledFunction ok(good);
    for (int step = 0; step < std::max(1, o.steps); ++step) check(good, ok, env, r);
  });
}

}  // namespace tlrt
