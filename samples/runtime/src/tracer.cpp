// Tracing by execution (see tracer.hpp).
#include "tlrt/tracer.hpp"

#include <algorithm>
#include <stdexcept>

namespace tlrt {

namespace {
thread_local Tracer* g_active = nullptr;
}

Tracer* Tracer::active() {
  return g_active;
}

void Tracer::set_active(Tracer* t) {
  g_active = t;
}

Tracer::Tracer(const Env& inputs, CompileCtx ctx, int describer_id,
               std::set<std::pair<std::string, int>> dynamic, const Program& program)
    : ctx_(ctx), describer_id_(describer_id), dynamic_(std::move(dynamic)), program_(program) {
  for (const auto& [name, v] : inputs.vars()) {
    if (auto* t = std::get_if<Tensor>(&v)) sources_.emplace(t->id(), name);
  }
  previous_ = g_active;
  g_active = this;
}

Tracer::~Tracer() {
  g_active = previous_;
}

std::string Tracer::unique_name(const std::string& base) {
  int& n = name_counts_[base];
  std::string name = n == 0 ? base : base + "_" + std::to_string(n);
  ++n;
  return name;
}

std::string Tracer::sym(int64_t v) const {
  auto it = sym_by_value_.find(v);
  return it != sym_by_value_.end() ? it->second : std::to_string(v);
}

int Tracer::add_placeholder(const Tensor& t, const std::string& var) {
  Node n;
  n.name = unique_name("l_" + var + "_");
  n.var = var;
  n.source = "L['" + var + "']";
  n.sizes = t.sizes();
  n.strides = t.strides();
  n.dtype = t.dtype();
  Guard g;
  g.kind = Guard::Kind::tensor_match;
  g.var = var;
  g.dtype = t.dtype();
  g.sizes = t.sizes();
  g.strides = t.strides();
  g.dynamic.assign(t.sizes().size(), false);
  g.user_fn = program_.name;
  g.user_file = program_.file;
  g.user_line = stmt_ ? stmt_->line : program_.first_line;
  TraceLog* log = TraceLog::current();
  EventContext ec;
  ec.ctx = ctx_;
  std::vector<Guard> dim_guards;
  for (int d = 0; d < static_cast<int>(t.ndim()); ++d) {
    if (!dynamic_.count({var, d}) || t.sizes()[d] < 2) continue;
    std::string s = "s";
    s += std::to_string(symbols.size());
    symbols.push_back({var, d, s, t.sizes()[d]});
    sym_by_value_.emplace(t.sizes()[d], s);
    g.dynamic[d] = true;
    Guard dg = g;
    dg.kind = Guard::Kind::dynamic_dim;
    dg.dim = d;
    dim_guards.push_back(dg);
    if (log) {
      Json m = Json::object();
      Json user_stack = log->frames({{g.user_line, program_.name, program_.file, ""}});
      m.set("symbol", s).set("val", std::to_string(t.sizes()[d])).set("vr", "[2, int_oo]");
      m.set("source", n.source + ".size()[" + std::to_string(d) + "]");
      m.set("user_stack", user_stack).set("stack", Json::array());
      log->emit("create_symbol", m, ec);
    }
  }
  for (size_t d = 0; d < n.sizes.size(); ++d) {
    n.sym_sizes.push_back(sym(n.sizes[d]));
    n.sym_strides.push_back(sym(n.strides[d]));
  }
  guards.push_back(g);
  for (auto& dg : dim_guards) guards.push_back(dg);
  if (log) {
    auto [it, fresh] = storage_ids_.emplace(&t.storage(), static_cast<int>(storage_ids_.size()));
    int tid = next_tensor_id_++;
    if (fresh) {
      Json s = Json::object();
      s.set("id", it->second).set("describer_id", describer_id_).set("size", t.storage_bytes());
      log->emit("describe_storage", s, ec);
    }
    Json d = Json::object();
    d.set("id", tid)
        .set("ndim", static_cast<int64_t>(t.ndim()))
        .set("dtype", dtype_torch_name(t.dtype()));
    d.set("device", "device(type='cpu')");
    Json size = Json::array();
    for (const auto& x : n.sym_sizes) {
      size.push(x[0] == 's' ? Json(x) : Json(static_cast<int64_t>(std::stoll(x))));
    }
    d.set("size", size).set("is_leaf", true);
    if (t.is_view()) d.set("is_view", true);
    d.set("stride", Json::list(t.strides()));
    if (t.offset() != 0) d.set("storage_offset", t.offset());
    d.set("storage", it->second);
    if (!symbols.empty()) {
      Json idx = Json::array();
      for (int k = 0; k < static_cast<int>(t.ndim()); ++k) {
        if (g.dynamic[k]) idx.push(k);
      }
      if (idx.as_array() && !idx.as_array()->empty()) d.set("dynamo_dynamic_indices", idx);
    }
    d.set("describer_id", describer_id_);
    log->emit("describe_tensor", d, ec);
    Json src = Json::object();
    src.set("describer_id", describer_id_).set("id", tid).set("source", n.source);
    log->emit("describe_source", src, ec);
  }
  graph.nodes.push_back(std::move(n));
  int idx = static_cast<int>(graph.nodes.size()) - 1;
  proxies_[t.id()] = idx;
  return idx;
}

int Tracer::proxy_for(const Tensor& t) {
  auto it = proxies_.find(t.id());
  if (it != proxies_.end()) return it->second;
  auto src = sources_.find(t.id());
  if (src != sources_.end()) return add_placeholder(t, src->second);
  // A tensor the frame did not receive as a variable (a captured constant): lift it as an input.
  std::string var = "_const_";
  var += std::to_string(sources_.size());
  sources_.emplace(t.id(), var);
  throw std::logic_error("tensor created outside the op set used inside a traced statement at " +
                         program_.file + ":" + std::to_string(stmt_ ? stmt_->line : 0));
}

void Tracer::record(const OpInfo& op, const std::vector<Tensor>& in, const OpAttrs& attrs,
                    const Tensor& out) {
  Node n;
  n.op = &op;
  for (const auto& t : in) n.inputs.push_back(proxy_for(t));
  n.name = unique_name(op.name);
  n.attrs = attrs;
  n.sizes = out.sizes();
  n.strides = out.strides();
  n.dtype = out.dtype();
  for (size_t d = 0; d < n.sizes.size(); ++d) {
    n.sym_sizes.push_back(sym(n.sizes[d]));
    n.sym_strides.push_back(sym(n.strides[d]));
  }
  if (stmt_) {
    n.line = stmt_->line;
    n.code = stmt_->code;
  }
  n.fn = program_.name;
  n.file = program_.file;
  graph.nodes.push_back(std::move(n));
  proxies_[out.id()] = static_cast<int>(graph.nodes.size()) - 1;
}

void Tracer::on_scalar_read(const std::string& name, double value) {
  if (written_.count(name) || !scalar_guarded_.insert(name).second) return;
  Guard g;
  g.kind = Guard::Kind::scalar_eq;
  g.var = name;
  g.value = value;
  g.user_fn = program_.name;
  g.user_file = program_.file;
  g.user_line = stmt_ ? stmt_->line : program_.first_line;
  guards.push_back(g);
}

void Tracer::on_size_read(const Tensor& t, const std::string& var, int dim, int64_t value) {
  proxy_for(t);  // an input read only for its size is still a graph input with its symbols
  auto sym = std::find_if(symbols.begin(), symbols.end(),
                          [&](const SymbolicDim& s) { return s.var == var && s.dim == dim; });
  if (sym == symbols.end()) return;  // a static dim: nothing to specialize
  for (const Specialization& s : specializations)
    if (s.symbol == sym->symbol) return;
  Specialization s{var,
                   sym->symbol,
                   "L['" + var + "'].size()[" + std::to_string(dim) + "]",
                   "",
                   "",
                   dim,
                   value,
                   stmt_ ? stmt_->line : program_.first_line};
  s.reason = var + ".size(" + std::to_string(dim) + ") is used as a Python int";
  s.guard = "Eq(" + s.symbol + ", " + std::to_string(value) + ")";
  // The entry now holds only for this size: the dim is checked again, as a static one.
  for (Guard& g : guards)
    if (g.kind == Guard::Kind::tensor_match && g.var == var &&
        static_cast<size_t>(dim) < g.dynamic.size())
      g.dynamic[static_cast<size_t>(dim)] = false;
  guards.erase(std::remove_if(guards.begin(), guards.end(),
                              [&](const Guard& g) {
                                return g.kind == Guard::Kind::dynamic_dim && g.var == var &&
                                       g.dim == dim;
                              }),
               guards.end());
  if (TraceLog* log = TraceLog::current()) {
    EventContext ec;
    ec.ctx = ctx_;
    std::string code = stmt_ ? stmt_->code : "";
    Json user_stack = log->frames({{s.user_line, program_.name, program_.file, code}});
    Json m = Json::object();
    m.set("symbol", s.symbol).set("sources", Json(Json::Array{Json(s.source)}));
    m.set("value", std::to_string(value)).set("reason", s.reason);
    m.set("stack", Json::array()).set("user_stack", user_stack);
    log->emit("symbolic_shape_specialization", m, ec);
    Json g = Json::object();
    g.set("expr", s.guard).set("user_stack", user_stack).set("stack", Json::array());
    log->emit("guard_added_fast", g, ec);
  }
  specializations.push_back(std::move(s));
}

void Tracer::on_write(const std::string& name) {
  written_.insert(name);
}

void Tracer::finish(const Env& after) {
  for (const auto& [name, v] : after.vars()) {
    if (!written_.count(name)) continue;
    if (auto* t = std::get_if<Tensor>(&v)) {
      graph.outputs.push_back(proxy_for(*t));
      graph.output_vars.push_back(name);
    }
  }
}

}  // namespace tlrt
