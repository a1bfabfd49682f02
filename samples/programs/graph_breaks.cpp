// Sample program "graph-breaks": a data-dependent branch on x.sum().item() and a print() break the
// graph; the code after each break resumes in its own frame (torch_dynamo_resume_in_forward_at_N).
#include "tlrt/compiler.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

static Program breaking_forward() {
  Program p("forward", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h", tanh(matmul(env.t("x"), env.t("w")))));
  TLRT_STMT(p, env.set("sign", item(sum(env.t("h"))) > 0 ? 1.0 : -1.0));
  TLRT_STMT(p, env.set("h", mul(env.t("h"), env.num("sign")) + 0.5));
  TLRT_STMT(p, print("h", env.t("h")));
  TLRT_STMT(p, env.set("out", sum(exp(env.t("h")), {1})));
  return p;
}

// The graph-breaks program with PyTorch 2.14's records (CompileOptions::torch214_records).
static ScenarioResult run_breaks(const ScenarioOptions& o, const char* scenario, bool torch214) {
  return run_single(o, scenario, [&](Process&, ScenarioResult& r) {
    Rng rng(o.seed);
    Tensor w = rng.randn({6, 6}, 0.5);
    Program prog = breaking_forward();
    CompileOptions options;
    options.torch214_records = torch214;
    CompiledFunction fn(prog, options);
    for (int step = 0; step < o.steps; ++step) {
      Env env;
      env.set("w", w);
      env.set("x", rng.randn({4, 6}));
      Env eager = env;
      fn(env);
      prog.run_eager(eager);
      if (!same_tensors(eager, env, r.detail)) r.compiled_matches_eager = false;
    }
  });
}

ScenarioResult scenario_graph_breaks(const ScenarioOptions& o) {
  return run_breaks(o, "graph-breaks", false);
}

ScenarioResult scenario_torch214(const ScenarioOptions& o) {
  return run_breaks(o, "torch214", true);
}

}  // namespace tlrt
