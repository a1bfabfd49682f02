// Tracing by execution: while a Tracer is active on a thread, every op called through call_op
// is recorded as a graph node, inputs read from the frame's variables become placeholders with
// guards (and describe_* records), and untraceable operations raise GraphBreakSignal.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tlrt/graph.hpp"
#include "tlrt/guards.hpp"
#include "tlrt/program.hpp"
#include "tlrt/trace_log.hpp"

namespace tlrt {

struct SymbolicDim {
  std::string var;
  int dim;
  std::string symbol;
  int64_t hint;
};

// A symbol the trace fixed to a constant, and the guard that fixes it.
struct Specialization {
  std::string var, symbol, source, reason, guard;
  int dim;
  int64_t value;
  int user_line;
};

class Tracer {
 public:
  // `dynamic` holds the (variable, dim) pairs automatic dynamic shapes has marked for this frame.
  Tracer(const Env& inputs, CompileCtx ctx, int describer_id,
         std::set<std::pair<std::string, int>> dynamic, const Program& program);
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  static Tracer* active();
  // Reinstalls a parked rank's tracer when its fiber resumes (rank_scheduler.hpp).
  static void set_active(Tracer* t);

  void record(const OpInfo& op, const std::vector<Tensor>& in, const OpAttrs& attrs,
              const Tensor& out);
  void on_scalar_read(const std::string& name, double value);
  void on_write(const std::string& name);
  void on_size_read(const Tensor& t, const std::string& var, int dim, int64_t value);
  void set_statement(const Stmt* stmt) { stmt_ = stmt; }
  // Builds the graph outputs from the variables the traced statements wrote.
  void finish(const Env& after);

  Graph graph;
  std::vector<Guard> guards;
  std::vector<SymbolicDim> symbols;
  std::vector<Specialization> specializations;

 private:
  int proxy_for(const Tensor& t);
  int add_placeholder(const Tensor& t, const std::string& var);
  std::string unique_name(const std::string& base);
  std::string sym(int64_t v) const;

  CompileCtx ctx_;
  int describer_id_;
  std::set<std::pair<std::string, int>> dynamic_;
  const Program& program_;
  const Stmt* stmt_ = nullptr;
  Tracer* previous_;
  std::map<const TensorImpl*, int> proxies_;
  std::map<const TensorImpl*, std::string> sources_;
  std::map<std::string, int> name_counts_;
  std::map<int64_t, std::string> sym_by_value_;
  std::set<std::string> written_, scalar_guarded_;
  std::map<const Storage*, int> storage_ids_;
  int next_tensor_id_ = 0;
};

}  // namespace tlrt
