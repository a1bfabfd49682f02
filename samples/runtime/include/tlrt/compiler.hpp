// compile(fn): a Dynamo-like frame evaluator. Per frame it keeps a cache of compiled entries,
// each guarded; a guard failure recompiles (logging why), repeated size changes make a dim
// dynamic, the cache limit falls back to eager, and untraceable statements break the graph and
// resume in a new frame (torch_dynamo_resume_in_<fn>_at_<line>). Everything is logged to the
// current Process's trace log and truth.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <source_location>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlrt/codegen.hpp"
#include "tlrt/guards.hpp"
#include "tlrt/process.hpp"
#include "tlrt/program.hpp"
#include "tlrt/trace_log.hpp"

namespace tlrt {

struct CompileOptions {
  std::string backend = "inductor";  // "broken_backend" always fails
  int recompile_limit = 8;           // torch._dynamo.config.recompile_limit
  bool automatic_dynamic = true;
  // max-autotune: log each kernel's autotuning (triton_kernel_info), a link to the report and,
  // after an entry's first run, its compilation_metrics_runtime record.
  bool autotune = false;
  // PyTorch 2.14's records: each compiled frame's bytecode before and after Dynamo rewrote it
  // (<name>_ORIGINAL_BYTECODE / <name>_MODIFIED_BYTECODE, resume functions too), and its graph
  // compiled as an invoke_subgraph body whose artifacts carry subgraph_name.
  bool torch214_records = false;
  // Runs inside backend_compile before Inductor, with the AOT graph's text: the place vLLM's
  // VllmBackend has as Dynamo's backend (it logs its config, piecewise compiles and passes).
  std::function<void(TraceLog&, const CompileCtx&, const std::string& aot_graph)> backend_hook;
};

// A failed compile, surfaced to the caller as torch.compile does (without suppress_errors).
struct CompileError : std::runtime_error {
  CompileError(std::string type, std::string reason, std::string id)
      : std::runtime_error(type + ": " + reason),
        fail_type(std::move(type)),
        fail_reason(std::move(reason)),
        compile_id(std::move(id)) {}
  std::string fail_type, fail_reason, compile_id;
};

class CompiledFunction {
 public:
  explicit CompiledFunction(const Program& program, CompileOptions options = {});
  // Calls the function on `env` (its arguments and results are variables of env).
  void operator()(Env& env, std::source_location call = std::source_location::current());
  // Counters for tests.
  int compiles() const { return compiles_; }
  int cache_hits() const { return hits_; }

 private:
  struct Entry {
    CompileCtx id;
    std::vector<Guard> guards;
    std::optional<CompiledGraph> compiled;
    std::map<std::string, Value> constants;  // non-tensor variables the traced part wrote
    int break_stmt = -1;                     // statement run eagerly after the graph
    std::string frame_name;
    int64_t compile_autotune_us = 0;
    std::shared_ptr<bool> ran = std::make_shared<bool>(false);  // runtime metrics logged once
    bool grad_enabled = true;  // the grad mode it was compiled under (GLOBAL_STATE guard)
  };
  struct Frame {
    size_t start = 0;
    std::string name;
    int frame_id = -1;
    std::vector<Entry> entries;
    bool skip = false;  // recompile limit hit: always eager
    std::set<std::pair<std::string, int>> dynamic;
  };

  void run_frame(size_t start, Env& env, const std::vector<StackFrame>& outer);
  void execute(Frame& f, const Entry& e, Env& env, const std::vector<StackFrame>& outer);
  void log_autotuning(TraceLog& log, Process& proc, const CompileCtx& ctx, const CompiledGraph& cg,
                      Entry& entry);
  void log_runtime_metrics(Process& proc, const Entry& e);
  Entry compile_frame(Frame& f, Env& env, const std::vector<std::string>& reasons,
                      const std::vector<StackFrame>& outer);

  const Program& program_;
  CompileOptions options_;
  std::map<size_t, Frame> frames_;
  int compiles_ = 0, hits_ = 0;
};

}  // namespace tlrt
