// Paired runs for `tlscope compare`: each pair scenario writes run A into OUT/a, run B into OUT/b
// and, into OUT/truth_diff.json, the differences between them as the runtime knows them (what it
// changed between the two runs). A comparison must find exactly those and nothing else.
#include <filesystem>
#include <fstream>

#include "tlrt/compiler.hpp"
#include "tlrt/guards.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

namespace {

// Both runs' programs start at this line, so that A's and B's versions of a function are one
// code location (file, first line, function) as an edited Python function keeps its `def` line.
constexpr int kPairFirstLine = 20;

Program pair_forward(bool with_break, int first_line = kPairFirstLine) {
  Program p("pair_forward", __FILE__, first_line);
  TLRT_STMT(p, env.set("h", tanh(matmul(env.t("x"), env.t("w")))));
  if (with_break) TLRT_STMT(p, env.set("sign", item(sum(env.t("h"))) > 0 ? 1.0 : -1.0));
  TLRT_STMT(p, env.set("out", sum(exp(env.t("h")), {1})));
  return p;
}

ScenarioOptions side(const ScenarioOptions& o, const char* name) {
  ScenarioOptions s = o;
  s.out_dir = (std::filesystem::path(o.out_dir) / name).string();
  return s;
}

struct Call {
  std::vector<int64_t> size;
  DType dtype = DType::f32;
  bool grad = true;  // false: called inside torch.no_grad()
};

// One process calling the compiled pair_forward once per call; `shift_ids` moves frame ids and
// the pid, as another process of the same program would have them.
ScenarioResult run_calls(const ScenarioOptions& o, const std::vector<Call>& calls, bool with_break,
                         bool shift_ids, int first_line = kPairFirstLine, bool warm_cache = false,
                         CompileOptions options = {}) {
  return run_single(o, "pair", [&](Process& proc, ScenarioResult& r) {
    proc.fx_graph_cache_warm = warm_cache;
    if (shift_ids) {
      proc.next_frame_id = 7;
      proc.log->set_pid(4242);
    }
    Rng rng(o.seed);
    Tensor w = rng.randn({6, 6}, 0.5);
    Program prog = pair_forward(with_break, first_line);
    CompiledFunction fn(prog, options);
    for (const Call& c : calls) {
      proc.grad_enabled = c.grad;
      Env env;
      env.set("w", c.dtype == DType::f32 ? w : to(w, c.dtype));
      env.set("x", c.dtype == DType::f32 ? rng.randn(c.size) : to(rng.randn(c.size), c.dtype));
      Env eager = env;
      fn(env);
      prog.run_eager(eager);
      if (!same_tensors(eager, env, r.detail)) r.compiled_matches_eager = false;
    }
  });
}

Json expected(const std::string& kind, const std::string& subject, const std::string& b = "") {
  Json d = Json::object();
  d.set("kind", kind).set("subject", subject);
  if (!b.empty()) d.set("b", b);
  return d;
}

ScenarioResult write_pair(const ScenarioOptions& o, ScenarioResult a, ScenarioResult b,
                          const Json& differences) {
  Json truth = Json::object();
  truth.set("a", (std::filesystem::path(o.out_dir) / "a").string());
  truth.set("b", (std::filesystem::path(o.out_dir) / "b").string());
  truth.set("differences", differences);
  const std::string path = (std::filesystem::path(o.out_dir) / "truth_diff.json").string();
  std::ofstream out(path);
  out << truth.dump() << "\n";
  if (!out) throw std::runtime_error(path + ": cannot write truth_diff.json");
  ScenarioResult r = std::move(b);
  r.logs.insert(r.logs.begin(), a.logs.begin(), a.logs.end());
  r.records += a.records;
  r.compiled_matches_eager = a.compiled_matches_eager && r.compiled_matches_eager;
  r.truth_path = path;
  return r;
}

const std::vector<Call> kSame = {{{4, 6}}, {{4, 6}}};

}  // namespace

ScenarioResult scenario_pair_identical(const ScenarioOptions& o) {
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), kSame, false, false), Json::array());
}

ScenarioResult scenario_pair_ids_shifted(const ScenarioOptions& o) {
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), kSame, false, true), Json::array());
}

ScenarioResult scenario_pair_graph_break(const ScenarioOptions& o) {
  // B's function reads a tensor's value (item()): Dynamo breaks the graph there, restarts the
  // compile to stop before it, and the rest of the function compiles as a resume frame.
  Json diffs = Json::array();
  diffs.push(expected("graph_break_added", "pairs.cpp", "Tensor.item()"));
  diffs.push(expected("restarts_changed", "pair_forward", "1"));
  diffs.push(expected("frame_added", "torch_dynamo_resume_in_pair_forward"));
  // Compile #0 of pair_forward now stops before the break: its graph loses the ops after it, and
  // the one fused kernel of its code fuses tanh alone (the runtime names a fused kernel after its
  // ops).
  diffs.push(expected("graph_node_removed", "call_function torch.exp", "0"));
  diffs.push(expected("graph_node_removed", "call_function torch.sum", "0"));
  diffs.push(expected("kernel_added", "pair_forward", "cpp_fused_tanh_0"));
  diffs.push(expected("kernel_removed", "pair_forward"));
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), kSame, true, false), diffs);
}

ScenarioResult scenario_pair_shape_recompile(const ScenarioOptions& o) {
  // B's second call has another batch size: the size guard of the first compile fails.
  Json diffs = Json::array();
  diffs.push(expected("recompile_added", "pair_forward",
                      "tensor 'x' size mismatch at index 0. expected 4, actual 8"));
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), {{{4, 6}}, {{8, 6}}}, false, false), diffs);
}

ScenarioResult scenario_pair_dtype_guard(const ScenarioOptions& o) {
  // B's second call passes float64 inputs: the dtype guard of the first compile fails.
  Json diffs = Json::array();
  diffs.push(expected("recompile_added", "pair_forward",
                      "tensor 'x' dtype mismatch. expected Float, actual Double"));
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), {{{4, 6}}, {{4, 6}, DType::f64}}, false, false), diffs);
}

ScenarioResult scenario_pair_grad_mode(const ScenarioOptions& o) {
  // B's second call runs inside torch.no_grad(): the first compile's GLOBAL_STATE guard (the grad
  // mode it was compiled under) fails and the frame compiles again.
  Json diffs = Json::array();
  diffs.push(expected("recompile_added", "compile #1", "GLOBAL_STATE changed: grad_mode"));
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), {{{4, 6}}, {{4, 6}, DType::f32, false}}, false, false),
                    diffs);
}

ScenarioResult scenario_pair_dynamic_dim(const ScenarioOptions& o) {
  // Both runs call with batch 4, then 8, so the size guard of compile #0 fails and the frame
  // recompiles (the same reason in both). A runs with automatic_dynamic_shapes off: compile #1 is
  // static again, for batch 8. B has it on, as PyTorch does by default: the failed size makes
  // dim 0 of x dynamic, so compile #1 traces it as s0.
  CompileOptions static_shapes;
  static_shapes.automatic_dynamic = false;
  Json diffs = Json::array();
  diffs.push(expected("config_changed", "automatic_dynamic_shapes", "True"));
  // Compile #1's graph: x and every node of pair_forward that keeps x's batch dim (matmul, tanh,
  // exp, and sum over dim 1) has s0 where A has 8.
  for (const char* node : {"L_x_", "matmul", "tanh", "exp", "sum"})
    diffs.push(
        expected("graph_shape_changed", std::string("compile #1: node `") + node + "`", "s0"));
  // Its guards, as this runtime prints them: x's TENSOR_MATCH leaves dim 0 unchecked, and the
  // dynamic dim adds its own guard.
  Guard x_static;
  x_static.var = "x";
  x_static.sizes = {8, 6};
  x_static.strides = {6, 1};
  x_static.dynamic = {false, false};
  Guard x_dynamic = x_static;
  x_dynamic.dynamic = {true, false};
  Guard dim0;
  dim0.kind = Guard::Kind::dynamic_dim;
  dim0.var = "x";
  dim0.dim = 0;
  Json removed = expected("guard_removed", "compile #1");
  removed.set("a", x_static.code());
  diffs.push(removed);
  diffs.push(expected("guard_added", "compile #1", x_dynamic.code()));
  diffs.push(expected("guard_added", "compile #1", dim0.code()));
  return write_pair(o,
                    run_calls(side(o, "a"), {{{4, 6}}, {{8, 6}}}, false, false, kPairFirstLine,
                              false, static_shapes),
                    run_calls(side(o, "b"), {{{4, 6}}, {{8, 6}}}, false, false), diffs);
}

ScenarioResult scenario_pair_desync(const ScenarioOptions& o) {
  // The same data-parallel job twice; in B, rank 2 issues another op for its first gradient
  // bucket at step 2 (the desync scenario).
  ScenarioOptions b = side(o, "b");
  b.desync_kind = "op";
  Json diffs = Json::array();
  diffs.push(expected("collective_finding_added", "desync"));
  diffs.push(expected("collective_divergence", "sequence"));
  return write_pair(o, scenario_ddp(side(o, "a")), scenario_desync(b), diffs);
}

ScenarioResult scenario_pair_moved_frame(const ScenarioOptions& o) {
  // B's source was edited above the function: the same function, three lines further down.
  Json diffs = Json::array();
  Json moved =
      expected("frame_moved", "pair_forward", "line " + std::to_string(kPairFirstLine + 3));
  diffs.push(moved);
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), kSame, false, false, kPairFirstLine + 3), diffs);
}

ScenarioResult scenario_pair_straggler(const ScenarioOptions& o) {
  // The same data-parallel job twice; in B, rank 3 is 400 ms late for one gradient bucket.
  Json diffs = Json::array();
  diffs.push(expected("collective_finding_added", "straggler"));
  // The other three ranks each wait the 400 ms for rank 3 at that collective.
  for (int rank = 0; rank < 3; ++rank)
    diffs.push(expected("collective_wait", "wait in collectives"));
  return write_pair(o, scenario_ddp(side(o, "a")), scenario_straggler(side(o, "b")), diffs);
}

ScenarioResult scenario_pair_warm_cache(const ScenarioOptions& o) {
  // B runs the same program with an FX graph cache an earlier run filled: compile #0's lookup
  // hits where A's (a cold cache) missed.
  Json diffs = Json::array();
  diffs.push(expected("cache_flip", "pair_forward", "hit"));
  return write_pair(o, run_calls(side(o, "a"), kSame, false, false),
                    run_calls(side(o, "b"), kSame, false, false, kPairFirstLine, true), diffs);
}

}  // namespace tlrt
