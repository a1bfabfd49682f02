// Sample program "mlp": a clean compile of a small MLP (layer_norm, gelu, softmax); every later
// call is a cache hit. Compiled results are checked against eager on every step.
#include "tlrt/compiler.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

static Program mlp_forward() {
  Program p("forward", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h", matmul(env.t("x"), env.t("w1")) + env.t("b1")));
  TLRT_STMT(p, env.set("h", gelu(layer_norm(env.t("h"), env.t("g"), env.t("beta")))));
  TLRT_STMT(p, env.set("logits", matmul(env.t("h"), env.t("w2")) + env.t("b2")));
  TLRT_STMT(p, env.set("probs", softmax(env.t("logits"), -1)));
  TLRT_STMT(p, env.set("score", amax(env.t("probs"), {1})));
  return p;
}

ScenarioResult scenario_mlp(const ScenarioOptions& o) {
  return run_single(o, "mlp", [&](Process&, ScenarioResult& r) {
    Rng rng(o.seed);
    Env params;
    params.set("w1", rng.randn({16, 32}, 0.25));
    params.set("b1", rng.randn({32}, 0.1));
    params.set("g", full({32}, 1.0));
    params.set("beta", full({32}, 0.0));
    params.set("w2", rng.randn({32, 10}, 0.25));
    params.set("b2", rng.randn({10}, 0.1));
    Program prog = mlp_forward();
    CompiledFunction fn(prog);
    for (int step = 0; step < o.steps; ++step) {
      Env env = params;
      env.set("x", rng.randn({8, 16}));
      Env eager = env;
      fn(env);
      prog.run_eager(eager);
      if (!same_tensors(eager, env, r.detail)) r.compiled_matches_eager = false;
    }
  });
}

}  // namespace tlrt
