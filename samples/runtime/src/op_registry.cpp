// The op table, call_op (run + record), item(), print() and the variable environment.
#include <cstdio>
#include <map>
#include <stdexcept>

#include "tlrt/ops.hpp"
#include "tlrt/program.hpp"
#include "tlrt/tracer.hpp"

namespace tlrt {

namespace {
thread_local int g_depth = 0;  // > 0 while inside a kernel: nested ops are not recorded

const std::map<std::string, OpInfo>& table() {
  static const std::map<std::string, OpInfo> t = [] {
    std::vector<OpInfo> ops;
    register_pointwise_ops(ops);
    register_reduction_ops(ops);
    register_shape_ops(ops);
    register_linalg_ops(ops);
    register_collective_ops(ops);
    std::map<std::string, OpInfo> m;
    for (auto& op : ops) m.emplace(op.name, op);
    return m;
  }();
  return t;
}

struct DepthGuard {
  DepthGuard() { ++g_depth; }
  ~DepthGuard() { --g_depth; }
};
}  // namespace

int kernel_depth() {
  return g_depth;
}
void set_kernel_depth(int depth) {
  g_depth = depth;
}

const OpInfo* find_op(const std::string& name) {
  auto it = table().find(name);
  return it == table().end() ? nullptr : &it->second;
}

Tensor run_kernel(const OpInfo& op, const std::vector<Tensor>& inputs, const OpAttrs& attrs) {
  for (const auto& t : inputs) {
    if (!t.defined()) throw std::invalid_argument(op.name + ": undefined tensor argument");
  }
  DepthGuard guard;
  return op.kernel(inputs, attrs);
}

Tensor call_op(const std::string& name, const std::vector<Tensor>& inputs, const OpAttrs& attrs) {
  const OpInfo* op = find_op(name);
  if (!op) throw std::invalid_argument("unknown op '" + name + "'");
  bool outer = g_depth == 0;
  Tensor out = run_kernel(*op, inputs, attrs);
  if (outer) {
    if (Tracer* tr = Tracer::active()) tr->record(*op, inputs, attrs, out);
  }
  return out;
}

double item(const Tensor& a) {
  if (Tracer::active() && g_depth == 0) {
    throw GraphBreakSignal{"Unsupported Tensor.item() call with capture_scalar_outputs=False"};
  }
  if (a.numel() != 1) {
    throw std::invalid_argument("a Tensor with " + std::to_string(a.numel()) +
                                " elements cannot be converted to Scalar");
  }
  return a.flat(0);
}

void print(const std::string& label, const Tensor& t) {
  if (Tracer::active()) {
    throw GraphBreakSignal{
        "call_function BuiltinVariable(print) [ConstantVariable(str), TensorVariable()] {}"};
  }
  std::string s = label + " " + shape_str(t.sizes()) + ":";
  int64_t n = std::min<int64_t>(t.numel(), 8);
  for (int64_t i = 0; i < n; ++i) {
    s += ' ';
    s += python_float(t.flat(i));
  }
  if (t.numel() > n) s += " ...";
  std::printf("%s\n", s.c_str());
}

const Value& Env::get(const std::string& name) const {
  auto it = vars_.find(name);
  if (it == vars_.end()) throw std::out_of_range("name '" + name + "' is not defined");
  return it->second;
}

const Tensor& Env::t(const std::string& name) const {
  const Value& v = get(name);
  if (auto* t = std::get_if<Tensor>(&v)) return *t;
  throw std::invalid_argument("'" + name + "' is not a Tensor");
}

double Env::num(const std::string& name) const {
  const Value& v = get(name);
  auto* d = std::get_if<double>(&v);
  if (!d) throw std::invalid_argument("'" + name + "' is not a number");
  if (Tracer* tr = Tracer::active()) tr->on_scalar_read(name, *d);
  return *d;
}

double Env::size(const std::string& name, int dim) const {
  const Tensor& x = t(name);
  if (dim < 0 || dim >= static_cast<int>(x.ndim()))
    throw std::invalid_argument("'" + name + "' has no dim " + std::to_string(dim));
  int64_t value = x.sizes()[static_cast<size_t>(dim)];
  if (Tracer* tr = Tracer::active()) tr->on_size_read(x, name, dim, value);
  return static_cast<double>(value);
}

const std::string& Env::str(const std::string& name) const {
  const Value& v = get(name);
  if (auto* s = std::get_if<std::string>(&v)) return *s;
  throw std::invalid_argument("'" + name + "' is not a string");
}

void Env::set(const std::string& name, Tensor t) {
  if (Tracer* tr = Tracer::active()) tr->on_write(name);
  vars_[name] = std::move(t);
}
void Env::set(const std::string& name, double v) {
  if (Tracer* tr = Tracer::active()) tr->on_write(name);
  vars_[name] = v;
}
void Env::set(const std::string& name, std::string s) {
  if (Tracer* tr = Tracer::active()) tr->on_write(name);
  vars_[name] = std::move(s);
}

void Program::run_eager(Env& env, size_t from) const {
  for (size_t i = from; i < stmts.size(); ++i) stmts[i].fn(env);
}

}  // namespace tlrt
