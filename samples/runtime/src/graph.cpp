// Printing of the graph IR in Dynamo's and AOTAutograd's styles.
#include "tlrt/graph.hpp"

#include <map>

namespace tlrt {

int Graph::op_count() const {
  int n = 0;
  for (const auto& node : nodes) n += node.is_placeholder() ? 0 : 1;
  return n;
}

int Graph::input_count() const {
  return static_cast<int>(placeholders().size());
}

std::vector<int> Graph::placeholders() const {
  std::vector<int> out;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].is_placeholder()) out.push_back(static_cast<int>(i));
  }
  return out;
}

bool Graph::has_collectives() const {
  for (const auto& n : nodes) {
    if (n.op && n.op->kind == OpKind::collective) return true;
  }
  return false;
}

std::string node_meta(const Node& n) {
  return fx_meta(n.dtype, n.sym_sizes, n.sym_strides);
}

std::string c10d_op_name(const OpInfo& op) {
  if (op.name == "all_reduce") return "all_reduce_";
  if (op.name == "all_gather") return "all_gather_into_tensor";
  if (op.name == "reduce_scatter") return "reduce_scatter_tensor";
  return op.name + "_";
}

std::string c10d_name(const OpInfo& op) {
  return "torch.ops._c10d_functional." + c10d_op_name(op) + ".default";
}

static std::string fmt_double(double d) {
  return python_float(d);
}

static std::string attr_args(const Node& n) {
  std::string s;
  const OpAttrs& a = n.attrs;
  if (n.op->kind == OpKind::collective) {
    return ", 'sum', '" + a.str + "'";
  }
  if (!a.ints.empty() && n.op->kind != OpKind::pointwise) {
    s += ", [";
    for (size_t i = 0; i < a.ints.size(); ++i) s += (i ? ", " : "") + std::to_string(a.ints[i]);
    s += "]";
  }
  for (double f : a.floats) s += ", " + fmt_double(f);
  if (n.op->name == "to") s += ", " + dtype_torch_name(static_cast<DType>(a.ints.at(0)));
  if (a.str == "keepdim") s += ", True";
  return s;
}

// For each node, the input names whose last use it is ("x = y = None" cleanup, as FX prints).
static std::map<int, std::vector<int>> last_uses(const Graph& g) {
  std::map<int, int> last;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    for (int in : g.nodes[i].inputs) last[in] = static_cast<int>(i);
  }
  for (int o : g.outputs) last.erase(o);
  std::map<int, std::vector<int>> out;
  for (auto [node, user] : last) out[user].push_back(node);
  return out;
}

static std::string print_graph(const Graph& g, bool aot) {
  std::string s =
      aot ? "class <lambda>(torch.nn.Module):\n" : "class GraphModule(torch.nn.Module):\n";
  s += "    def forward(self";
  std::map<int, std::string> name;
  int argi = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (!n.is_placeholder()) continue;
    std::string arg = aot ? "arg" + std::to_string(argi++) + "_1" : "L_" + n.var + "_";
    s += ", " + arg + ": \"" + node_meta(n) + "\"";
    name[static_cast<int>(i)] = aot ? arg : n.name;
  }
  s += "):\n";
  if (!aot) {
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (g.nodes[i].is_placeholder())
        s += "        " + g.nodes[i].name + " = L_" + g.nodes[i].var + "_\n";
    }
  }
  auto frees = last_uses(g);
  int last_line = -1;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.is_placeholder()) continue;
    name[static_cast<int>(i)] = n.name;
    if (n.line != last_line) {
      s += "        \n         # File: " + n.file + ":" + std::to_string(n.line) + " in " + n.fn +
           ", code: " + n.code + "\n";
      last_line = n.line;
    }
    std::string callee = n.op->kind == OpKind::collective ? c10d_name(*n.op)
                         : aot                            ? n.op->aten
                                                          : n.op->torch;
    std::string args;
    if (n.op->name == "cat") {
      args = "[";
      for (size_t k = 0; k < n.inputs.size(); ++k) args += (k ? ", " : "") + name[n.inputs[k]];
      args += "]";
    } else {
      for (size_t k = 0; k < n.inputs.size(); ++k) args += (k ? ", " : "") + name[n.inputs[k]];
    }
    args += attr_args(n);
    s += "        " + n.name + ": \"" + node_meta(n) + "\" = " + callee + "(" + args + ")";
    auto f = frees.find(static_cast<int>(i));
    if (f != frees.end()) {
      s += ";  ";
      for (int k : f->second) s += name[k] + " = ";
      s += "None";
    }
    s += "\n";
    if (n.op->kind == OpKind::collective) {
      s += "        wait_tensor" + n.name.substr(n.op->name.size()) + ": \"" + node_meta(n) +
           "\" = torch.ops._c10d_functional.wait_tensor.default(" + n.name + ")\n";
    }
  }
  s += "        return (";
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const Node& o = g.nodes[g.outputs[k]];
    std::string nm = name[g.outputs[k]];
    if (o.op && o.op->kind == OpKind::collective)
      nm = "wait_tensor" + o.name.substr(o.op->name.size());
    s += (k ? ", " : "") + nm;
  }
  s += g.outputs.size() == 1 ? ",)" : ")";
  return s;
}

std::string print_dynamo_graph(const Graph& g) {
  return print_graph(g, false);
}
std::string print_aot_graph(const Graph& g) {
  return print_graph(g, true);
}

Json graph_sizes(const Graph& g) {
  Json sizes = Json::object();
  for (const auto& n : g.nodes) {
    Json dims = Json::array();
    for (const auto& d : n.sym_sizes) {
      bool numeric = !d.empty() && (std::isdigit(static_cast<unsigned char>(d[0])) || d[0] == '-');
      dims.push(numeric ? Json(static_cast<int64_t>(std::stoll(d))) : Json(d));
    }
    sizes.set(n.name, dims);
  }
  Json meta = Json::object();
  meta.set("sizes", sizes);
  return meta;
}

}  // namespace tlrt
