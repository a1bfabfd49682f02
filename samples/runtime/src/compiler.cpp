// The frame evaluator of compile() (see compiler.hpp).
#include "tlrt/compiler.hpp"

#include <algorithm>
#include <cstdlib>

#include "tlrt/process.hpp"
#include "tlrt/tracer.hpp"

namespace tlrt {

namespace {

Json artifact_meta(const std::string& name, const std::string& encoding) {
  Json m = Json::object();
  m.set("name", name).set("encoding", encoding);
  return m;
}

// Inductor's provenance tracking, on as in PyTorch with INDUCTOR_PROVENANCE=1
// (torch._inductor.config.trace.provenance_tracking_level).
bool provenance_tracking() {
  const char* v = std::getenv("INDUCTOR_PROVENANCE");
  return v && *v && std::string(v) != "0";
}

// The graphs and node mappings PyTorch logs with provenance tracking, and what they must link in
// truth.json: per kernel, its post-grad and pre-grad nodes and its lines in the output code.
template <typename Log, typename Ctx>
void emit_provenance(Log& log, const Ctx& where, const Graph& graph, const CompiledGraph& cg,
                     Process* proc, const std::string& compile_id) {
  log.emit("artifact", artifact_meta("before_pre_grad_graph", "string"), where,
           print_dynamo_graph(graph));
  log.emit("artifact", artifact_meta("after_post_grad_graph", "string"), where,
           print_aot_graph(graph));
  log.emit("artifact", artifact_meta("inductor_provenance_tracking_node_mappings", "json"), where,
           provenance_node_mappings(cg).dump());
  if (!proc->truth) return;
  std::vector<std::string> seen;
  for (const GraphKernel& k : cg.kernels) {
    if (k.code_key.empty() || std::find(seen.begin(), seen.end(), k.code_key) != seen.end())
      continue;
    seen.push_back(k.code_key);
    std::vector<std::string> nodes;
    std::vector<int> calls;
    for (const GraphKernel& same : cg.kernels) {
      if (same.code_key != k.code_key) continue;
      for (int n : same.nodes) nodes.push_back(graph.nodes[n].name);
      calls.insert(calls.end(), same.call_lines.begin(), same.call_lines.end());
    }
    Json d = Json::object();
    d.set("rank", std::max(proc->rank, 0))
        .set("compile_id", compile_id)
        .set("kernel", k.code_key)
        .set("post_nodes", Json::list(nodes))
        .set("pre_nodes", Json::list(nodes))
        .set("def_line", k.def_line)
        .set("call_lines", Json::list(calls));
    proc->truth->add("provenance", d);
  }
}

EventContext at(const CompileCtx& c) {
  EventContext ec;
  ec.ctx = c;
  return ec;
}

// What PyTorch 2.14 logs beside a compiled graph (CompileOptions::torch214_records): Dynamo's
// disassembly of the frame before and after its rewrite (the rewrite calls the compiled graph),
// and the graph as the body of an invoke_subgraph, `repeated_subgraph0`, whose records carry the
// envelope's subgraph_name. truth.json gets "bytecode" and "subgraphs" entries for each.
void emit_torch214_records(TraceLog& log, const CompileCtx& ctx, const std::string& name, int line,
                           const Graph& graph, Process* proc) {
  const std::string original =
      "  " + std::to_string(line) + "           0 RESUME                   0\n" +
      "              2 LOAD_FAST                0 (x)\n" + "              4 RETURN_VALUE";
  const std::string modified =
      "  " + std::to_string(line) + "           0 RESUME                   0\n" +
      "              2 LOAD_GLOBAL              1 (__compiled_fn_" + std::to_string(ctx.frame_id) +
      "_" + std::to_string(ctx.frame_compile_id) + " + NULL)\n" +
      "              4 LOAD_FAST                0 (x)\n" +
      "              6 CALL                     1\n" + "              8 RETURN_VALUE";
  const std::string names[2] = {name + "_ORIGINAL_BYTECODE", name + "_MODIFIED_BYTECODE"};
  log.emit("artifact", artifact_meta(names[0], "string"), at(ctx), original);
  log.emit("artifact", artifact_meta(names[1], "string"), at(ctx), modified);
  EventContext sub = at(ctx);
  sub.subgraph_name = "repeated_subgraph0";
  log.emit("artifact", artifact_meta("fx_graph_runnable", "string"), sub,
           "import torch\n# the body of repeated_subgraph0\n" + print_aot_graph(graph));
  log.emit("artifact", artifact_meta("before_post_grad_graph", "string"), sub,
           print_aot_graph(graph));
  if (!proc->truth) return;
  Json b = Json::object();
  b.set("rank", std::max(proc->rank, 0))
      .set("compile_id", ctx.str())
      .set("names", Json::list(std::vector<std::string>{names[0], names[1]}));
  proc->truth->add("bytecode", b);
  Json g = Json::object();
  g.set("rank", std::max(proc->rank, 0))
      .set("compile_id", ctx.str())
      .set("subgraph_name", "repeated_subgraph0")
      .set("artifacts",
           Json::list(std::vector<std::string>{"fx_graph_runnable", "before_post_grad_graph"}));
  proc->truth->add("subgraphs", g);
}

// A size-mismatch failure text names the tensor and index: "tensor 'x' size mismatch at index 0".
std::optional<std::pair<std::string, int>> size_mismatch(const std::string& reason) {
  const std::string pre = "tensor '";
  size_t a = reason.find(pre);
  size_t b = reason.find("' size mismatch at index ");
  if (a != 0 || b == std::string::npos) return std::nullopt;
  std::string var = reason.substr(pre.size(), b - pre.size());
  int idx = std::atoi(reason.c_str() + b + std::string("' size mismatch at index ").size());
  return std::make_pair(var, idx);
}

}  // namespace

CompiledFunction::CompiledFunction(const Program& program, CompileOptions options)
    : program_(program), options_(std::move(options)) {}

void CompiledFunction::operator()(Env& env, std::source_location call) {
  std::vector<StackFrame> outer{{static_cast<int>(call.line()),
                                 short_function_name(call.function_name()), call.file_name(), ""}};
  run_frame(0, env, outer);
}

void CompiledFunction::run_frame(size_t start, Env& env, const std::vector<StackFrame>& outer) {
  if (start >= program_.stmts.size()) return;
  Frame& f = frames_[start];
  if (f.name.empty()) {
    f.start = start;
    f.name = start == 0 ? program_.name
                        : "torch_dynamo_resume_in_" + program_.name + "_at_" +
                              std::to_string(program_.stmts[start - 1].line);
  }
  if (f.skip) {
    program_.run_eager(env, start);
    return;
  }
  std::vector<std::string> reasons;
  // Most recent entry first, as Dynamo's cache lookup walks it.
  for (size_t i = f.entries.size(); i-- > 0;) {
    const Entry& e = f.entries[i];
    std::optional<std::string> failure;
    // Dynamo's GLOBAL_STATE guard runs first; its failure names each global flag that changed.
    if (const Process* proc = Process::current(); proc && e.grad_enabled != proc->grad_enabled)
      failure = "GLOBAL_STATE changed: grad_mode ";
    for (const auto& g : e.guards) {
      if (failure) break;
      failure = g.check(env);
    }
    if (!failure) {
      ++hits_;
      execute(f, e, env, outer);
      return;
    }
    reasons.push_back(e.id.str() + ": " + *failure);
  }
  Entry e = compile_frame(f, env, reasons, outer);
  if (f.skip) {
    program_.run_eager(env, start);
    return;
  }
  f.entries.push_back(std::move(e));
  execute(f, f.entries.back(), env, outer);
}

void CompiledFunction::execute(Frame& f, const Entry& e, Env& env,
                               const std::vector<StackFrame>& outer) {
  Process* proc = Process::current();
  if (e.compiled) {
    std::vector<Tensor> inputs;
    for (int p : e.compiled->graph.placeholders())
      inputs.push_back(env.t(e.compiled->graph.nodes[p].var));
    std::optional<CompileCtx> saved;
    if (proc) {
      saved = proc->executing;
      proc->executing = e.id;
      proc->execution_order.push_back(e.id.str());
    }
    std::vector<Tensor> outs;
    try {
      // What the profiler shows around every call of a Dynamo-compiled frame.
      RecordFunction region("Torch-Compiled Region: " + e.id.str());
      outs = run_compiled(*e.compiled, inputs);
    } catch (...) {
      if (proc) proc->executing = saved;
      throw;
    }
    if (proc) proc->executing = saved;
    for (size_t i = 0; i < outs.size(); ++i) env.set(e.compiled->graph.output_vars[i], outs[i]);
    if (options_.autotune && !*e.ran && proc) log_runtime_metrics(*proc, e);
  }
  for (const auto& [name, v] : e.constants) {
    if (auto* d = std::get_if<double>(&v)) env.set(name, *d);
    if (auto* s = std::get_if<std::string>(&v)) env.set(name, *s);
  }
  if (e.break_stmt < 0) return;
  program_.stmts[static_cast<size_t>(e.break_stmt)].fn(env);  // the break runs eagerly
  run_frame(static_cast<size_t>(e.break_stmt) + 1, env, outer);
  (void)f;
}

// max-autotune's record of each generated kernel (how many configs it benchmarked, whether the
// autotune cache had them) and a link record, as Inductor's logs carry for a compile.
void CompiledFunction::log_autotuning(TraceLog& log, Process& proc, const CompileCtx& ctx,
                                      const CompiledGraph& cg, Entry& entry) {
  Json info = Json::object();
  Json kernels = Json::array();
  int64_t total = 0;
  for (size_t i = 0; i < cg.kernels.size(); ++i) {
    const GraphKernel& k = cg.kernels[i];
    if (!k.fused) continue;
    int64_t configs = 2 + static_cast<int64_t>(i % 3), compile_us = 40 * configs;
    total += compile_us;
    Json one = Json::object();
    one.set("autotune_cache_state", "miss").set("num_configs", configs);
    one.set("compile_time_us", compile_us);
    info.set(k.name, one);
    Json t = Json::object();
    t.set("name", k.name).set("num_configs", configs).set("autotune_cache_state", "miss");
    kernels.push(t);
  }
  entry.compile_autotune_us = total;
  log.emit("artifact", artifact_meta("triton_kernel_info", "json"), at(ctx), info.dump_indent0());
  std::string url = "https://autotune.invalid/report/" + ctx.str();
  Json link = Json::object();
  link.set("name", "autotune_report").set("url", url);
  log.emit("link", link, at(ctx));
  if (proc.truth) {
    Json t = Json::object();
    t.set("rank", std::max(proc.rank, 0)).set("compile_id", ctx.str()).set("kernels", kernels);
    t.set("link_name", "autotune_report").set("link_url", url);
    proc.truth->add("autotuning", t);
  }
}

// What PyTorch logs once a compiled entry has run for the first time: the runtime half of the
// compile's metrics (no attempt in its context), here the autotuning the first call paid for.
void CompiledFunction::log_runtime_metrics(Process& proc, const Entry& e) {
  *e.ran = true;
  int64_t autotune_us = 0;
  for (const GraphKernel& k : e.compiled->kernels) autotune_us += k.fused ? 150 : 0;
  Json m = Json::object();
  m.set("compile_id", e.id.str()).set("co_name", e.frame_name).set("is_runtime", true);
  m.set("runtime_triton_autotune_time_us", autotune_us)
      .set("runtime_cudagraphify_time_us", nullptr);
  CompileCtx ctx = e.id;
  ctx.has_attempt = false;
  proc.log->emit("compilation_metrics_runtime", m, at(ctx));
  if (proc.truth) {
    Json t = Json::object();
    t.set("rank", std::max(proc.rank, 0)).set("compile_id", e.id.str());
    t.set("runtime_triton_autotune_time_us", autotune_us)
        .set("compile_time_autotune_time_us", e.compile_autotune_us);
    proc.truth->add("runtime", t);
  }
}

CompiledFunction::Entry CompiledFunction::compile_frame(Frame& f, Env& env,
                                                        const std::vector<std::string>& reasons,
                                                        const std::vector<StackFrame>& outer) {
  Process* proc = Process::current();
  if (!proc) throw std::logic_error("compile() needs a Process on this thread");
  TraceLog& log = *proc->log;
  if (f.frame_id < 0) f.frame_id = proc->next_frame_id++;
  Entry entry;
  entry.id = CompileCtx{f.frame_id, static_cast<int>(f.entries.size()), 0, true};
  entry.grad_enabled = proc->grad_enabled;
  CompileCtx ctx = entry.id;
  ++compiles_;
  double t_start = log.chromium("dynamo", 'B', ctx);
  const Stmt& first = program_.stmts[f.start];

  std::string recompile_reason;
  if (!reasons.empty()) {
    std::string payload = "[\n";
    for (size_t i = 0; i < reasons.size(); ++i)
      payload += (i ? ",\n" : "") + Json(reasons[i]).dump();
    payload += "\n]";
    log.emit("artifact", artifact_meta("recompile_reasons", "json"), at(ctx), payload);
    recompile_reason = reasons.front();
    std::string guard = recompile_reason.substr(recompile_reason.find(": ") + 2);
    if (proc->truth) {
      Json t = Json::object();
      t.set("rank", std::max(proc->rank, 0))
          .set("compile_id", ctx.str())
          .set("frame", f.name)
          .set("failed_guard", guard);
      t.set("reason", recompile_reason);
      proc->truth->add("recompiles", t);
    }
    if (options_.automatic_dynamic) {
      if (auto sm = size_mismatch(guard)) f.dynamic.insert(*sm);
    }
  }
  // PyTorch times _compile.compile_inner as entire_frame_compile: its span is the metrics'
  // entire_frame_compile_time_s and dynamo_cumulative_compile_time_us (dynamo_timed's column).
  const double frame_start =
      log.chromium("entire_frame_compile", 'B', ctx,
                   Json(Json::Object{{"fn_name", Json("_compile.compile_inner")}}));
  auto end_frame_compile = [&] {
    return log.chromium("entire_frame_compile", 'E', ctx,
                        Json(Json::Object{{"fn_name", Json("_compile.compile_inner")}}));
  };
  std::vector<StackFrame> stack = outer;
  stack.push_back({first.line, f.name, program_.file, first.code});
  Json ds = Json::object();
  ds.set("stack", log.frames(stack));
  log.emit("dynamo_start", ds, at(ctx));

  auto metrics = [&](Json& m, double end) {
    m.set("compile_id", ctx.str())
        .set("frame_key", std::to_string(f.frame_id + 1))
        .set("co_name", f.name);
    m.set("co_filename", program_.file)
        .set("co_firstlineno", f.start == 0 ? program_.first_line : first.line);
    m.set("cache_size", static_cast<int64_t>(f.entries.size()))
        .set("accumulated_cache_size", static_cast<int64_t>(f.entries.size()));
    m.set("start_time", t_start / 1e6)
        .set("entire_frame_compile_time_s", (end - frame_start) / 1e6);
    m.set("start_time_us", static_cast<int64_t>(t_start))
        .set("end_time_us", static_cast<int64_t>(end));
    m.set("duration_us", static_cast<int64_t>(end - t_start));
    m.set("dynamo_cumulative_compile_time_us", static_cast<int64_t>(end - frame_start));
    m.set("is_forward", true).set("is_runtime", false).set("log_format_version", 3);
    m.set("recompile_reason", recompile_reason.empty() ? Json(nullptr) : Json(recompile_reason));
    m.set("config_suppress_errors", false).set("specialize_float", false);
    // torch._dynamo.config as PyTorch logs it: a JSON string inside the record.
    Json config = Json::object();
    config.set("recompile_limit", options_.recompile_limit)
        .set("automatic_dynamic_shapes", options_.automatic_dynamic);
    m.set("dynamo_config", config.dump());
    if (proc->truth && !proc->config_in_truth) {
      proc->config_in_truth = true;
      for (auto [key, value] :
           {std::pair<const char*, std::string>{"recompile_limit",
                                                std::to_string(options_.recompile_limit)},
            {"automatic_dynamic_shapes", options_.automatic_dynamic ? "True" : "False"}}) {
        Json entry = Json::object();
        entry.set("rank", proc->rank < 0 ? 0 : proc->rank)
            .set("scope", "dynamo")
            .set("key", key)
            .set("value", value);
        proc->truth->add("config", entry);
      }
    }
  };

  if (static_cast<int>(f.entries.size()) >= options_.recompile_limit) {
    // Dynamo stops recompiling this frame and runs it eagerly from now on.
    f.skip = true;
    std::string reason = "cache_size_limit reached";
    Json m = Json::object();
    double end = end_frame_compile();
    metrics(m, end);
    m.set("fail_type", "RecompileLimitExceeded").set("fail_reason", reason);
    m.set("fail_user_frame_filename", program_.file).set("fail_user_frame_lineno", first.line);
    m.set("restart_reasons", Json::array())
        .set("num_graph_breaks", 0)
        .set("graph_op_count", nullptr);
    m.set("has_guarded_code", false);
    log.emit("compilation_metrics", m, at(ctx));
    log.chromium("dynamo", 'E', ctx);
    if (proc->truth) {
      Json t = Json::object();
      t.set("rank", std::max(proc->rank, 0))
          .set("frame", f.name)
          .set("compile_id", ctx.str())
          .set("limit", options_.recompile_limit);
      proc->truth->add("cache_limit", t);
    }
    return entry;
  }

  std::vector<std::string> restart_reasons;
  int stop_at = -1;  // statement index where the graph must end (a known break)
  int describer = proc->next_describer_id;
  std::unique_ptr<Tracer> tracer;
  Env traced;
  for (;;) {
    log.chromium("compile_attempt_" + std::to_string(ctx.attempt), 'B', ctx);
    log.chromium("bytecode_tracing", 'B', ctx);
    describer = proc->next_describer_id++;
    traced = env;
    tracer = std::make_unique<Tracer>(env, ctx, describer, f.dynamic, program_);
    std::optional<std::pair<size_t, std::string>> brk;
    size_t end = stop_at >= 0 ? static_cast<size_t>(stop_at) : program_.stmts.size();
    for (size_t i = f.start; i < end; ++i) {
      tracer->set_statement(&program_.stmts[i]);
      try {
        program_.stmts[i].fn(traced);
      } catch (const GraphBreakSignal& sig) {
        brk = std::make_pair(i, sig.reason);
        break;
      }
    }
    log.chromium("bytecode_tracing", 'E', ctx);
    if (!brk) break;
    const Stmt& s = program_.stmts[brk->first];
    std::string payload = "Graph break in user code at " + program_.file + ":" +
                          std::to_string(s.line) + "\nGraph Break Reason: " + brk->second +
                          "\nUser code traceback:\n  File \"" + program_.file + "\", line " +
                          std::to_string(s.line) + ", in " + program_.name + "\n    " + s.code +
                          "\n";
    log.emit("artifact", artifact_meta("dynamo_graph_break_reason", "string"), at(ctx), payload);
    if (proc->truth) {
      Json t = Json::object();
      t.set("rank", std::max(proc->rank, 0))
          .set("compile_id", ctx.str())
          .set("frame", f.name)
          .set("file", program_.file);
      t.set("line", s.line).set("reason", brk->second);
      proc->truth->add("graph_breaks", t);
    }
    restart_reasons.push_back(brk->second);
    log.chromium("compile_attempt_" + std::to_string(ctx.attempt), 'E', ctx);
    tracer.reset();
    stop_at = static_cast<int>(brk->first);
    entry.break_stmt = stop_at;
    ++ctx.attempt;
  }
  tracer->finish(traced);
  Graph graph = tracer->graph;
  entry.guards = tracer->guards;
  for (const auto& s : tracer->symbols) {
    if (proc->truth) {
      Json d = Json::object();
      d.set("rank", std::max(proc->rank, 0))
          .set("frame", f.name)
          .set("input", s.var)
          .set("dim", s.dim)
          .set("symbol", s.symbol);
      d.set("compile_id", ctx.str()).set("hint", s.hint);
      proc->truth->add("dynamic_dims", d);
    }
  }
  for (const Specialization& s : tracer->specializations) {
    if (!proc->truth) break;
    Json t = Json::object();
    t.set("rank", std::max(proc->rank, 0)).set("compile_id", ctx.str()).set("frame", f.name);
    t.set("symbol", s.symbol).set("source", s.source).set("value", s.value);
    t.set("reason", s.reason).set("line", s.user_line).set("guard", s.guard);
    proc->truth->add("specializations", t);
  }
  entry.frame_name = f.name;
  for (const auto& [name, v] : traced.vars()) {
    if (std::holds_alternative<Tensor>(v)) continue;
    bool same = env.has(name) && env.vars().at(name).index() == v.index() &&
                (std::holds_alternative<double>(v)
                     ? std::get<double>(env.vars().at(name)) == std::get<double>(v)
                     : std::get<std::string>(env.vars().at(name)) == std::get<std::string>(v));
    if (!same) entry.constants[name] = v;
  }
  tracer.reset();

  double backend_us = 0, inductor_us = 0;
  std::vector<std::string> custom_ops;
  if (graph.op_count() > 0) {
    log.emit("dynamo_output_graph", graph_sizes(graph), at(ctx), print_dynamo_graph(graph));
    if (options_.torch214_records) emit_torch214_records(log, ctx, f.name, first.line, graph, proc);
    double b0 = log.chromium("backend_compile", 'B', ctx);
    try {
      const std::string aot_graph = print_aot_graph(graph);
      log.emit("aot_inference_graph", Json::object(), at(ctx), aot_graph);
      if (options_.backend_hook) options_.backend_hook(log, ctx, aot_graph);
      const double inductor_start = log.chromium("inductor_compile", 'B', ctx);
      CompiledGraph cg = inductor_compile(graph, options_.backend);
      int& compiled = proc->fx_graph_cache[cg.cache_key];
      const bool seen = compiled > 0 || proc->fx_graph_cache_warm;
      Json cache = Json::object();
      cache.set("key", cg.cache_key)
          .set("components", Json::array())
          .set("cache_state", seen ? "hit" : "miss");
      log.emit("artifact",
               artifact_meta(seen ? "fx_graph_cache_hit" : "fx_graph_cache_miss", "json"), at(ctx),
               cache.dump_indent0());
      ++compiled;
      Json oc = Json::object();
      oc.set("filename",
             "/tmp/torchinductor_tlrt/" + cg.cache_key.substr(1, 2) + "/c" + cg.cache_key + ".py");
      log.emit("inductor_output_code", oc, at(ctx), cg.code);
      if (provenance_tracking()) emit_provenance(log, at(ctx), graph, cg, proc, ctx.str());
      if (!cg.collective_schedule.empty()) {
        std::string sched = "[\n";
        for (size_t i = 0; i < cg.collective_schedule.size(); ++i)
          sched += (i ? ",\n" : "") + Json(cg.collective_schedule[i]).dump();
        sched += "\n]";
        log.emit("artifact", artifact_meta("inductor_collective_schedule", "json"), at(ctx), sched);
        log.emit("artifact", artifact_meta("inductor_runtime_and_tensor_meta", "json"), at(ctx),
                 cg.runtime_meta.dump_indent0());
        for (const auto& n : graph.nodes) {
          if (!n.op || n.op->kind != OpKind::collective) continue;
          std::string op = "_c10d_functional::" + c10d_op_name(*n.op);
          if (std::find(custom_ops.begin(), custom_ops.end(), op) == custom_ops.end())
            custom_ops.push_back(op);
        }
        custom_ops.push_back("_c10d_functional::wait_tensor");
        if (proc->truth) {
          // What the graph really issues: each collective node once, each waited once.
          Json ops = Json::object();
          std::map<std::string, int> n_ops;
          int issued = 0;
          for (const auto& n : graph.nodes) {
            if (!n.op || n.op->kind != OpKind::collective) continue;
            ++n_ops[c10d_op_name(*n.op)];
            ++issued;
          }
          for (const auto& [name, count] : n_ops) ops.set(name, count);
          ops.set("wait_tensor", issued);
          Json t = Json::object();
          t.set("rank", std::max(proc->rank, 0))
              .set("compile_id", ctx.str())
              .set("collectives", ops)
              .set("estimated_runtime_ns", cg.estimated_runtime_ns);
          proc->truth->add("compiled_graphs", t);
        }
      }
      if (options_.autotune) log_autotuning(log, *proc, ctx, cg, entry);
      inductor_us = log.chromium("inductor_compile", 'E', ctx) - inductor_start;
      entry.compiled = std::move(cg);
    } catch (const BackendFailure& e) {
      std::string reason = "backend='" + options_.backend + "' raised:\nRuntimeError: " + e.what();
      std::string tb = "Traceback (most recent call last):\n  File \"" + relative_source(__FILE__) +
                       "\", line " + std::to_string(__LINE__) +
                       ", in compile_frame\n    inductor_compile(graph, backend)\n"
                       "torch._dynamo.exc.BackendCompilerFailed: " +
                       reason + "\n";
      log.emit("artifact", artifact_meta("dynamo_error", "string"), at(ctx), tb);
      log.chromium("inductor_compile", 'E', ctx);
      log.chromium("backend_compile", 'E', ctx);
      log.chromium("compile_attempt_" + std::to_string(ctx.attempt), 'E', ctx);
      double end = end_frame_compile();
      Json m = Json::object();
      metrics(m, end);
      m.set("guard_count", nullptr).set("graph_op_count", nullptr).set("graph_node_count", nullptr);
      m.set("graph_input_count", nullptr);
      m.set("fail_type", "BackendCompilerFailed").set("fail_reason", reason);
      m.set("fail_user_frame_filename", program_.file).set("fail_user_frame_lineno", first.line);
      m.set("restart_reasons", Json::list(restart_reasons))
          .set("num_graph_breaks", static_cast<int64_t>(restart_reasons.size()));
      m.set("has_guarded_code", false);
      log.emit("compilation_metrics", m, at(ctx));
      log.chromium("dynamo", 'E', ctx,
                   Json(Json::Object{{"fail_type", Json("BackendCompilerFailed")}}));
      if (proc->truth) {
        Json t = Json::object();
        t.set("rank", std::max(proc->rank, 0)).set("compile_id", ctx.str()).set("frame", f.name);
        t.set("fail_type", "BackendCompilerFailed").set("fail_reason", reason);
        proc->truth->add("failures", t);
      }
      throw CompileError("BackendCompilerFailed", reason, ctx.str());
    }
    backend_us = log.chromium("backend_compile", 'E', ctx) - b0;
  }

  log.chromium("build_guards", 'B', ctx);
  log.emit("dynamo_guards", Json::object(), at(ctx), guards_payload(entry.guards));
  log.emit("dynamo_cpp_guards_str", Json::object(), at(ctx), cpp_guards_tree(entry.guards));
  log.chromium("build_guards", 'E', ctx);
  log.chromium("compile_attempt_" + std::to_string(ctx.attempt), 'E', ctx);
  double end = end_frame_compile();
  Json m = Json::object();
  metrics(m, end);
  int shape_guards = 0;
  for (const auto& g : entry.guards) shape_guards += g.kind == Guard::Kind::dynamic_dim ? 1 : 0;
  m.set("guard_count", static_cast<int64_t>(entry.guards.size()))
      .set("shape_env_guard_count", shape_guards);
  m.set("graph_op_count", graph.op_count())
      .set("graph_node_count", static_cast<int64_t>(graph.nodes.size()) + 1);
  m.set("graph_input_count", graph.input_count());
  m.set("backend_compile_time_s", backend_us / 1e6)
      .set("inductor_compile_time_s", inductor_us / 1e6);
  m.set("aot_autograd_cumulative_compile_time_us", static_cast<int64_t>(backend_us));
  m.set("inductor_cumulative_compile_time_us", static_cast<int64_t>(inductor_us));
  m.set("fail_type", nullptr).set("fail_reason", nullptr);
  m.set("fail_user_frame_filename", nullptr).set("fail_user_frame_lineno", nullptr);
  m.set("non_compliant_ops", Json::array()).set("compliant_custom_ops", Json::list(custom_ops));
  m.set("restart_reasons", Json::list(restart_reasons));
  m.set("num_graph_breaks", static_cast<int64_t>(restart_reasons.size()));
  m.set("dynamo_time_before_restart_s", 0.0).set("has_guarded_code", true);
  if (options_.autotune) m.set("compile_time_autotune_time_us", entry.compile_autotune_us);
  log.emit("compilation_metrics", m, at(ctx));
  log.chromium("dynamo", 'E', ctx);
  entry.id = ctx;
  entry.id.attempt = 0;
  return entry;
}

}  // namespace tlrt
