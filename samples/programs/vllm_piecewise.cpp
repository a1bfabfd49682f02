// Sample program "vllm-piecewise": a small transformer-like block compiled through a vLLM-style
// backend, which logs what vLLM's VllmBackend and PiecewiseBackend log (vllm/compilation/
// backends.py, piecewise_backend.py, vllm_inductor_pass.py): the compilation config, the graph
// split at the "attention" op (softmax here) into submodules, a piecewise compile of each
// compiled submodule for the dynamic range and for each cudagraph capture size (with the
// submodule's graph dumped once), and per piecewise compile the post-grad passes: the graph
// before them, then each pass's output graph. The passes really rewrite the graph text
// (mm + add -> addmm, layer_norm + gelu -> one fused op) and truth.json says what each removed
// and added, counted here from the rewrite itself.
#include <string>
#include <utility>
#include <vector>

#include "tlrt/compiler.hpp"
#include "tlrt/ops.hpp"
#include "tlrt/scenario.hpp"

namespace tlrt {

namespace {

Program block_forward() {
  Program p("forward", __FILE__, __LINE__);
  TLRT_STMT(p, env.set("h", matmul(env.t("x"), env.t("w1")) + env.t("b1")));
  TLRT_STMT(p, env.set("h", gelu(layer_norm(env.t("h"), env.t("g"), env.t("beta")))));
  TLRT_STMT(p, env.set("logits", matmul(env.t("h"), env.t("w2")) + env.t("b2")));
  TLRT_STMT(p, env.set("probs", softmax(env.t("logits"), -1)));
  TLRT_STMT(p, env.set("out", matmul(env.t("probs"), env.t("w3")) + env.t("b3")));
  TLRT_STMT(p, env.set("y", gelu(layer_norm(env.t("out"), env.t("g2"), env.t("beta2")))));
  return p;
}

constexpr const char* kSplittingOp = "aten._softmax";  // the "attention" the graph splits at
const std::vector<int64_t> kCompileSizes = {4, 8};     // also the cudagraph capture sizes
constexpr int64_t kMaxTokens = 64;                     // the range [1, 64] between split points

struct Range {
  int64_t start, end;
};

// The op lines of the AOT graph ("name: ... = torch.ops.aten.x(...)"), split at the splitting op.
std::pair<std::vector<std::string>, std::vector<std::string>> split_ops(const std::string& graph) {
  std::vector<std::string> before, after;
  bool split = false;
  size_t start = 0;
  while (start < graph.size()) {
    size_t nl = graph.find('\n', start);
    if (nl == std::string::npos) nl = graph.size();
    std::string line = graph.substr(start, nl - start);
    start = nl + 1;
    if (line.find(" = torch.ops.") == std::string::npos) continue;
    if (line.find(kSplittingOp) != std::string::npos) {
      split = true;
      continue;
    }
    (split ? after : before).push_back(line);
  }
  return {before, after};
}

std::string module_text(const std::string& name, const std::vector<std::string>& ops) {
  std::string s = "class " + name + "(torch.nn.Module):\n    def forward(self, *args):\n";
  for (const std::string& op : ops) s += op + "\n";
  return s + "        return None";
}

std::string lhs(const std::string& line) {
  return line.substr(0, line.find(" = "));
}

// A fusion pass: each op line matching `first` followed by one matching `second` becomes one
// line calling `fused`. Returns the number of pairs fused (each removes two lines, adds one).
int fuse(std::vector<std::string>& ops, const char* first, const char* second, const char* fused) {
  int pairs = 0;
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    if (ops[i].find(first) == std::string::npos || ops[i + 1].find(second) == std::string::npos)
      continue;
    const std::string input = ops[i].substr(8, ops[i].find(':') - 8);
    ops[i] = lhs(ops[i + 1]) + " = torch.ops." + fused + "(" + input + ")";
    ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    ++pairs;
  }
  return pairs;
}

struct PassInfo {
  const char* name;
  const char* first;
  const char* second;
  const char* fused;
};
constexpr PassInfo kPasses[] = {
    {"FusionPass", "aten.mm.default", "aten.add.Tensor", "aten.addmm.default"},
    {"LayerNormGeluFusionPass", "aten.native_layer_norm", "aten.gelu",
     "tlrt.fused_ln_gelu.default"},
};

Json config_record() {
  Json c = Json::object();
  c.set("model", "tlrt/tiny-block").set("prefix", "").set("mode", "CompilationMode.VLLM_COMPILE");
  c.set("backend", "inductor").set("custom_ops", "none").set("splitting_ops", "aten::_softmax");
  c.set("cudagraph_mode", "CUDAGraphMode.FULL_AND_PIECEWISE").set("compile_sizes", "4, 8");
  c.set("compile_ranges_split_points", std::to_string(kMaxTokens));
  c.set("use_inductor_graph_partition", false).set("inductor_passes", "");
  c.set("enabled_passes", "fuse_matmul_add, fuse_norm_act");
  c.set("dynamic_shapes_type", "DynamicShapesType.BACKED");
  c.set("dynamic_shapes_evaluate_guards", false);
  return c;
}

// What VllmBackend.__call__ logs, run as the compile's backend.
void vllm_backend(Process& proc, TraceLog& log, const CompileCtx& ctx, const std::string& graph) {
  const EventContext at{ctx, std::nullopt, {}};
  auto artifact = [](const char* name, const char* encoding) {
    Json m = Json::object();
    m.set("name", name).set("encoding", encoding);
    return m;
  };
  auto dump_name = [](const std::string& name) {
    Json m = Json::object();
    m.set("name", name);
    return m;
  };
  const Json config = config_record();
  log.emit("artifact", artifact("vllm_compilation_config", "json"), at, config.dump());
  if (proc.truth) proc.truth->add("vllm_config", config);
  for (const PassInfo& p : kPasses)
    log.emit("graph_dump", dump_name(std::string("vllm_patterns.") + p.name), at,
             std::string("# patterns of ") + p.name + "\ndef pattern(a, b):\n    return " +
                 p.fused + "(a, b)");
  auto [first, second] = split_ops(graph);
  log.emit("graph_dump", dump_name("vllm_piecewise_split_graph"), at,
           "class GraphModule(torch.nn.Module):\n    def forward(self, *args):\n"
           "        submod_0 = self.submod_0(*args)\n        submod_1 = self.submod_1(submod_0)\n"
           "        submod_2 = self.submod_2(submod_1)\n        return submod_2");
  const std::vector<std::pair<std::string, std::vector<std::string>>> submods = {
      {"submod_0", first}, {"submod_2", second}};
  std::vector<Range> ranges = {{1, kMaxTokens}};
  for (int64_t s : kCompileSizes) ranges.push_back({s, s});
  int chain = 0;
  for (size_t index = 0; index < submods.size(); ++index) {
    const auto& [name, ops] = submods[index];
    for (size_t r = 0; r < ranges.size(); ++r) {
      const Range range = ranges[r];
      bool capture = false;
      for (int64_t s : kCompileSizes) capture |= range.start == s;
      Json start = Json::object();
      start.set("piecewise_index", static_cast<int64_t>(index)).set("submod_name", name);
      start.set("total_piecewise_compiles", static_cast<int64_t>(submods.size()));
      start.set("compile_range_start", range.start).set("compile_range_end", range.end);
      start.set("is_single_size", range.start == range.end);
      start.set("is_cudagraph_capture_size", capture);
      log.chromium("vllm_log_compile_start_torch_trace_only", 'B', ctx);
      log.emit("artifact", artifact("vllm_piecewise_compile_start", "json"), at, start.dump());
      if (r == 0) log.emit("graph_dump", dump_name("vllm_" + name), at, module_text(name, ops));
      log.chromium("vllm_log_compile_start_torch_trace_only", 'E', ctx);
      if (proc.truth) {
        Json t = start;
        t.set("compile_id", ctx.str());
        proc.truth->add("vllm_piecewise", t);
      }
      // The submodule's Inductor compile: the post-grad passes over its graph.
      std::vector<std::string> graph_ops = ops;
      log.emit("artifact", artifact("before_post_grad_graph", "string"), at,
               module_text(name, graph_ops));
      for (size_t k = 0; k < std::size(kPasses); ++k) {
        const PassInfo& p = kPasses[k];
        const int pairs = fuse(graph_ops, p.first, p.second, p.fused);
        log.emit("graph_dump",
                 dump_name("vllm_post_grad." + std::to_string(k) + "." + std::string(p.name)), at,
                 module_text(name, graph_ops));
        if (proc.truth) {
          Json t = Json::object();
          t.set("compile_id", ctx.str()).set("submod_name", name).set("chain", chain);
          t.set("range_start", range.start).set("range_end", range.end);
          t.set("pass_index", static_cast<int64_t>(k)).set("pass", p.name);
          t.set("lines_removed", 2 * pairs).set("lines_added", pairs);
          proc.truth->add("vllm_passes", t);
        }
      }
      ++chain;
    }
  }
}

}  // namespace

ScenarioResult scenario_vllm_piecewise(const ScenarioOptions& o) {
  return run_single(o, "vllm-piecewise", [&](Process& proc, ScenarioResult& r) {
    Rng rng(o.seed);
    Env params;
    params.set("w1", rng.randn({16, 32}, 0.25));
    params.set("b1", rng.randn({32}, 0.1));
    params.set("g", full({32}, 1.0));
    params.set("beta", full({32}, 0.0));
    params.set("w2", rng.randn({32, 16}, 0.25));
    params.set("b2", rng.randn({16}, 0.1));
    params.set("w3", rng.randn({16, 16}, 0.25));
    params.set("b3", rng.randn({16}, 0.1));
    params.set("g2", full({16}, 1.0));
    params.set("beta2", full({16}, 0.0));
    Program prog = block_forward();
    CompileOptions options;
    options.backend_hook = [&proc](TraceLog& log, const CompileCtx& ctx, const std::string& g) {
      vllm_backend(proc, log, ctx, g);
    };
    CompiledFunction fn(prog, options);
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
