// Paired runs for `tlscope compare`: each pair scenario writes run A into OUT/a, run B into OUT/b
// and, into OUT/truth_diff.json, the differences between them as the runtime knows them (what it
// changed between the two runs). A comparison must find exactly those and nothing else.
#include <filesystem>
#include <fstream>

#include "tlrt/compiler.hpp"
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
};

// One process calling the compiled pair_forward once per call; `shift_ids` moves frame ids and
// the pid, as another process of the same program would have them.
ScenarioResult run_calls(const ScenarioOptions& o, const std::vector<Call>& calls, bool with_break,
                         bool shift_ids, int first_line = kPairFirstLine) {
  return run_single(o, "pair", [&](Process& proc, ScenarioResult& r) {
    if (shift_ids) {
      proc.next_frame_id = 7;
      proc.log->set_pid(4242);
    }
    Rng rng(o.seed);
    Tensor w = rng.randn({6, 6}, 0.5);
    Program prog = pair_forward(with_break, first_line);
    CompiledFunction fn(prog);
    for (const Call& c : calls) {
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
  return write_pair(o, scenario_ddp(side(o, "a")), scenario_straggler(side(o, "b")), diffs);
}

}  // namespace tlrt
