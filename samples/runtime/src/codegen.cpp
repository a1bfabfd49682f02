// Lowering, fusion and the generated-code text (see codegen.hpp).
#include "tlrt/codegen.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "tlrt/md5.hpp"

namespace tlrt {
namespace {

// "x" + std::to_string(n) without operator+(const char*, string&&), which trips GCC 12's
// -Wrestrict false positive (PR 105651).
std::string prefixed(const char* prefix, int64_t n) {
  std::string s = prefix;
  s += std::to_string(n);
  return s;
}

std::vector<GraphKernel> schedule(const Graph& g) {
  std::vector<GraphKernel> ks;
  GraphKernel* open = nullptr;
  std::map<std::string, int> fused_count;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.is_placeholder()) continue;
    int id = static_cast<int>(i);
    if (n.op->kind == OpKind::pointwise) {
      if (!open || open->shape != n.sizes) {
        ks.push_back(GraphKernel{true, "", {}, {}, {}, n.sizes, "", 0, {}});
        open = &ks.back();
      }
      open->nodes.push_back(id);
    } else {
      ks.push_back(GraphKernel{false, n.op->name, {id}, {}, {}, n.sizes, "", 0, {}});
      open = nullptr;
    }
  }
  // Inputs and escaping outputs of each kernel.
  std::set<int> graph_outputs(g.outputs.begin(), g.outputs.end());
  std::map<int, size_t> kernel_of;
  for (size_t k = 0; k < ks.size(); ++k) {
    for (int n : ks[k].nodes) kernel_of[n] = k;
  }
  for (size_t k = 0; k < ks.size(); ++k) {
    std::set<int> inside(ks[k].nodes.begin(), ks[k].nodes.end());
    for (int n : ks[k].nodes) {
      for (int in : g.nodes[n].inputs) {
        if (!inside.count(in) &&
            std::find(ks[k].inputs.begin(), ks[k].inputs.end(), in) == ks[k].inputs.end()) {
          ks[k].inputs.push_back(in);
        }
      }
    }
  }
  for (size_t k = 0; k < ks.size(); ++k) {
    for (int n : ks[k].nodes) {
      bool escapes = graph_outputs.count(n) > 0;
      for (size_t j = 0; j < ks.size() && !escapes; ++j) {
        if (j != k && std::find(ks[j].inputs.begin(), ks[j].inputs.end(), n) != ks[j].inputs.end())
          escapes = true;
      }
      if (escapes) ks[k].outputs.push_back(n);
    }
    if (ks[k].fused) {
      std::string name = "cpp_fused";
      for (int n : ks[k].nodes) name += "_" + g.nodes[n].op->name;
      if (name.size() > 60) name = name.substr(0, 60);
      ks[k].name = name + prefixed("_", fused_count[name]++);
    }
  }
  return ks;
}

std::string c_type(DType d) {
  switch (d) {
    case DType::f32:
      return "float";
    case DType::f64:
      return "double";
    case DType::i64:
      return "int64_t";
    case DType::b8:
      return "bool";
  }
  return "float";
}

// Index expression of an input read inside a loop nest over `shape` (broadcast dims vanish).
std::string index_expr(const Node& in, const Shape& shape) {
  std::string expr;
  size_t lead = shape.size() - in.sizes.size();
  for (size_t d = 0; d < in.sizes.size(); ++d) {
    if (in.sizes[d] == 1) continue;
    std::string var = prefixed("x", lead + d);
    std::string stride = in.sym_strides[d];
    std::string term = stride == "1" ? var : stride + "L*" + var;
    expr = expr.empty() ? term : term + " + " + expr;
  }
  return expr.empty() ? "0" : expr;
}

std::string replace_all(const std::string& s, const std::string& from, const std::string& to) {
  std::string out;
  size_t pos = 0;
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, pos)) {
    out.append(s, pos, p - pos);
    out.append(to);
    pos = p + from.size();
  }
  out.append(s, pos, std::string::npos);
  return out;
}

std::string fused_kernel_code(const Graph& g, const GraphKernel& k) {
  std::string s = k.name + " = async_compile.cpp_pybinding([";
  std::vector<std::string> params;
  for (size_t i = 0; i < k.inputs.size(); ++i)
    params.push_back("const " + c_type(g.nodes[k.inputs[i]].dtype) + "* in_ptr" +
                     std::to_string(i));
  for (size_t i = 0; i < k.outputs.size(); ++i)
    params.push_back(c_type(g.nodes[k.outputs[i]].dtype) + prefixed("* out_ptr", i));
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ", '" : "'") + params[i].substr(0, params[i].rfind(' ')) + "'";
  s += "], '''\n#include \"/tmp/torchinductor_tlrt/cpp_prefix.h\"\nextern \"C\"  void kernel(";
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ",\n                       " : "") + params[i];
  s += ")\n{\n";
  const Node& first = g.nodes[k.nodes.front()];
  std::string indent = "    ";
  for (size_t d = 0; d < k.shape.size(); ++d) {
    std::string x = prefixed("x", d), bound = first.sym_sizes[d];
    if (bound[0] == 's') bound = "k" + bound;  // symbols become kernel arguments (ks0)
    if (d + 1 == k.shape.size()) s += indent + "#pragma omp simd\n";
    s += indent + "for(int64_t " + x + "=static_cast<int64_t>(0L); " + x +
         "<static_cast<int64_t>(" + bound + (bound[0] == 'k' ? "" : "L") + "); " + x +
         "+=static_cast<int64_t>(1L))\n" + indent + "{\n";
    indent += "    ";
  }
  std::map<int, std::string> tmp;
  int t = 0;
  for (size_t i = 0; i < k.inputs.size(); ++i) {
    std::string name = prefixed("tmp", t++);
    s += indent + "auto " + name + prefixed(" = in_ptr", i) + "[static_cast<int64_t>(" +
         index_expr(g.nodes[k.inputs[i]], k.shape) + ")];\n";
    tmp[k.inputs[i]] = name;
  }
  for (int n : k.nodes) {
    const Node& node = g.nodes[n];
    std::string e = node.op->c_expr;
    for (size_t a = 0; a < node.inputs.size(); ++a)
      e = replace_all(e, prefixed("{", a) + "}", tmp[node.inputs[a]]);
    if (!node.attrs.floats.empty())
      e = replace_all(e, "{s0}", "static_cast<float>(" + python_float(node.attrs.floats[0]) + ")");
    e = replace_all(e, "static_cast<T>", "static_cast<" + c_type(node.dtype) + ">");
    std::string name = prefixed("tmp", t++);
    s += indent + "auto " + name + " = " + e + ";\n";
    tmp[n] = name;
  }
  for (size_t i = 0; i < k.outputs.size(); ++i) {
    Shape contiguous = contiguous_strides(k.shape);
    std::string idx;
    for (size_t d = 0; d < k.shape.size(); ++d) {
      std::string term = contiguous[d] == 1 ? prefixed("x", d)
                                            : std::to_string(contiguous[d]) + prefixed("L*x", d);
      idx = idx.empty() ? term : term + " + " + idx;
    }
    s += indent + prefixed("out_ptr", i) + "[static_cast<int64_t>(" + (idx.empty() ? "0" : idx) +
         ")] = " + tmp[k.outputs[i]] + ";\n";
  }
  for (size_t d = k.shape.size(); d-- > 0;) {
    indent.resize(indent.size() - 4);
    s += indent + "}\n";
  }
  s += "}\n''')\n\n\n";
  return s;
}

std::string tuple_str(const std::vector<std::string>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s + (v.size() == 1 ? ",)" : ")");
}

double estimate_ns(const Node& n) {
  double elems = static_cast<double>(shape_numel(n.sizes));
  if (n.op->name == "matmul" && !n.inputs.empty()) return elems * 2.0 * 64 / 50.0 + 1000.0;
  if (n.op->kind == OpKind::collective) return elems * dtype_itemsize(n.dtype) / 25.0 + 5000.0;
  return elems / 8.0 + 500.0;
}

}  // namespace

CompiledGraph inductor_compile(const Graph& g, const std::string& backend) {
  if (backend == "broken_backend") throw BackendFailure("broken backend");
  CompiledGraph cg;
  cg.graph = g;
  cg.kernels = schedule(g);
  std::map<int, std::string> buf;
  int argi = 0;
  std::vector<std::string> args;
  for (int p : g.placeholders()) {
    buf[p] = prefixed("arg", argi++) + "_1";
    args.push_back(buf[p]);
  }
  std::string kernels_src, call;
  // Where each kernel's definition and calls were written (offsets into kernels_src / call),
  // turned into output-code lines once the code is assembled.
  std::vector<size_t> kernel_def_at;
  std::vector<std::pair<std::ptrdiff_t, size_t>> kernel_calls_at;
  int bufi = 0;
  Json ops = Json::array();
  for (const auto& k : cg.kernels) {
    if (k.fused) {
      kernel_def_at.push_back(kernels_src.size());
      kernels_src += fused_kernel_code(g, k);
      std::vector<std::string> kargs;
      for (int in : k.inputs) kargs.push_back(buf[in]);
      for (int out : k.outputs) {
        const Node& n = g.nodes[out];
        buf[out] = prefixed("buf", bufi++);
        call += "    " + buf[out] + " = empty_strided_cpu(" + tuple_str(n.sym_sizes) + ", " +
                tuple_str(n.sym_strides) + ", " + dtype_torch_name(n.dtype) + ")\n";
        kargs.push_back(buf[out]);
      }
      kernel_calls_at.push_back({&k - cg.kernels.data(), call.size()});
      call += "    " + k.name + "(";
      for (size_t i = 0; i < kargs.size(); ++i) call += (i ? ", " : "") + kargs[i];
      call += ")\n";
    } else {
      const Node& n = g.nodes[k.nodes[0]];
      std::string in_args;
      for (size_t i = 0; i < n.inputs.size(); ++i) in_args += (i ? ", " : "") + buf[n.inputs[i]];
      buf[k.nodes[0]] = prefixed("buf", bufi++);
      std::string b = buf[k.nodes[0]];
      if (n.op->kind == OpKind::collective) {
        call += "    " + b + " = " + c10d_name(*n.op) + "(" + in_args + ", 'sum', '" + n.attrs.str +
                "')\n";
        call += "    torch.ops._c10d_functional.wait_tensor.default(" + b + ")\n";
        cg.collective_schedule.push_back(c10d_name(*n.op));
        cg.collective_schedule.push_back("torch.ops._c10d_functional.wait_tensor.default");
      } else if (n.op->kind == OpKind::view) {
        call += "    " + b + " = reinterpret_tensor(" + in_args + ", " + tuple_str(n.sym_sizes) +
                ", " + tuple_str(n.sym_strides) + ", 0)  # " + n.op->aten + "\n";
      } else if (n.op->name == "matmul") {
        call += "    " + b + " = empty_strided_cpu(" + tuple_str(n.sym_sizes) + ", " +
                tuple_str(n.sym_strides) + ", " + dtype_torch_name(n.dtype) + ")\n";
        kernel_calls_at.push_back({&k - cg.kernels.data(), call.size()});
        call += "    extern_kernels.mm(" + in_args + ", out=" + b + ")\n";
      } else {
        call += "    " + b + " = " + n.op->aten + "(" + in_args + ")\n";
      }
    }
    // One runtime/meta entry per kernel, as inductor_runtime_and_tensor_meta lists them.
    const Node& last = g.nodes[k.nodes.back()];
    Json op = Json::object();
    bool coll = last.op->kind == OpKind::collective;
    op.set("name", k.fused ? k.name : "extern_kernels." + last.op->name);
    op.set("type", coll ? "collective" : "compute");
    double est = 0;
    for (int n : k.nodes) est += estimate_ns(g.nodes[n]);
    op.set("estimated_runtime_ns", est);
    cg.estimated_runtime_ns += est;
    Json outs = Json::array();
    Json o = Json::object();
    o.set("shape", Json::list(last.sizes))
        .set("stride", Json::list(last.strides))
        .set("dtype", dtype_plain(last.dtype));
    outs.push(o);
    op.set("outputs", outs);
    ops.push(op);
  }
  std::vector<std::string> rets;
  for (int o : g.outputs) rets.push_back(buf[o]);
  std::string code =
      "# AOT ID: ['0_inference']\nfrom ctypes import c_void_p, c_long, c_int\nimport torch\nimport "
      "math\n"
      "from torch._inductor.select_algorithm import extern_kernels\n"
      "from torch._inductor.codegen.memory_planning import _align as align\n"
      "from torch._inductor.async_compile import AsyncCompile\n\n"
      "aten = torch.ops.aten\nempty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu\n"
      "reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor\nasync_compile = "
      "AsyncCompile()\n\n\n";
  const size_t kernels_at = code.size();
  code += kernels_src;
  code += "async_compile.wait(globals())\ndel async_compile\n\ndef call(args):\n";
  code +=
      "    " +
      (args.empty() ? std::string("()") : tuple_str(args).substr(1, tuple_str(args).size() - 2)) +
      " = args\n";
  code += "    args.clear()\n";
  const size_t call_at = code.size();
  code += call + "    return " + tuple_str(rets) + "\n";
  auto line_at = [&](size_t offset) {
    return 1 + static_cast<int>(std::count(code.begin(), code.begin() + offset, '\n'));
  };
  size_t fused_index = 0;
  for (auto& k : cg.kernels) {
    if (k.fused) {
      k.code_key = k.name;
      k.def_line = line_at(kernels_at + kernel_def_at[fused_index++]);
    } else if (g.nodes[k.nodes[0]].op->name == "matmul") {
      k.code_key = "extern_kernels.mm";
    }
  }
  for (auto [kernel, offset] : kernel_calls_at)
    cg.kernels[static_cast<size_t>(kernel)].call_lines.push_back(line_at(call_at + offset));
  cg.code = code;
  Json meta = Json::object();
  meta.set("ops", ops);
  cg.runtime_meta = meta;
  cg.cache_key = "f";
  cg.cache_key += md5_hex(print_aot_graph(g)).substr(0, 26);
  return cg;
}

std::vector<Tensor> run_compiled(const CompiledGraph& cg, const std::vector<Tensor>& inputs) {
  const Graph& g = cg.graph;
  std::vector<Tensor> val(g.nodes.size());
  auto ph = g.placeholders();
  if (ph.size() != inputs.size())
    throw std::invalid_argument("compiled graph: wrong number of inputs");
  for (size_t i = 0; i < ph.size(); ++i) val[ph[i]] = inputs[i];
  for (const auto& k : cg.kernels) {
    if (!k.fused) {
      const Node& n = g.nodes[k.nodes[0]];
      std::vector<Tensor> in;
      for (int x : n.inputs) in.push_back(val[x]);
      val[k.nodes[0]] = run_kernel(*n.op, in, n.attrs);
      continue;
    }
    // One pass over the iteration space evaluating every op of the kernel per element; each
    // intermediate is rounded to its dtype exactly as the eager op would round it.
    // The iteration space comes from the actual inputs, so a kernel compiled with a symbolic
    // dim runs at whatever size arrives.
    Shape shape = k.shape;
    if (!k.inputs.empty()) {
      std::vector<Shape> in_shapes;
      for (int in : k.inputs) in_shapes.push_back(val[in].sizes());
      Shape b = broadcast_shapes(in_shapes);
      if (b.size() == shape.size()) shape = b;
    }
    size_t nd = shape.size();
    std::vector<Shape> bstr;
    std::vector<int64_t> off;
    for (int in : k.inputs) {
      const Tensor& t = val[in];
      Shape s(nd, 0);
      size_t lead = nd - t.sizes().size();
      for (size_t d = 0; d < t.sizes().size(); ++d)
        s[lead + d] = t.sizes()[d] == 1 ? 0 : t.strides()[d];
      bstr.push_back(s);
      off.push_back(t.offset());
    }
    std::map<int, size_t> slot;
    for (size_t i = 0; i < k.inputs.size(); ++i) slot[k.inputs[i]] = i;
    for (size_t i = 0; i < k.nodes.size(); ++i) slot[k.nodes[i]] = k.inputs.size() + i;
    std::vector<Tensor> outs;
    for (int o : k.outputs) outs.push_back(Tensor::empty(shape, g.nodes[o].dtype));
    std::vector<double> reg(k.inputs.size() + k.nodes.size());
    Shape idx(nd, 0);
    int64_t total = shape_numel(shape);
    for (int64_t lin = 0; lin < total; ++lin) {
      for (size_t i = 0; i < k.inputs.size(); ++i)
        reg[i] = val[k.inputs[i]].storage().data[static_cast<size_t>(off[i])];
      for (size_t j = 0; j < k.nodes.size(); ++j) {
        const Node& n = g.nodes[k.nodes[j]];
        double a[3] = {0, 0, 0};
        for (size_t q = 0; q < n.inputs.size(); ++q) a[q] = reg[slot[n.inputs[q]]];
        reg[k.inputs.size() + j] = round_to(n.dtype, n.op->scalar(a, n.attrs));
      }
      for (size_t o = 0; o < outs.size(); ++o) {
        outs[o].impl()->storage->data[static_cast<size_t>(lin)] = reg[slot[k.outputs[o]]];
      }
      for (size_t d = nd; d-- > 0;) {
        if (++idx[d] < shape[d]) {
          for (size_t i = 0; i < off.size(); ++i) off[i] += bstr[i][d];
          break;
        }
        for (size_t i = 0; i < off.size(); ++i) off[i] -= bstr[i][d] * (shape[d] - 1);
        idx[d] = 0;
      }
    }
    for (size_t o = 0; o < outs.size(); ++o) val[k.outputs[o]] = outs[o];
  }
  std::vector<Tensor> result;
  for (int o : g.outputs) result.push_back(val[o]);
  return result;
}

Json provenance_node_mappings(const CompiledGraph& cg) {
  const Graph& g = cg.graph;
  Json pre_to_post = Json::object(), post_to_pre = Json::object();
  for (const Node& n : g.nodes) {
    if (n.is_placeholder()) continue;
    // The AOT graph names its nodes as dynamo's, and waits on each collective in a node of its own.
    Json post = Json::array();
    post.push(n.name);
    post_to_pre.set(n.name, Json::list(std::vector<std::string>{n.name}));
    if (n.op->kind == OpKind::collective) {
      std::string wait = "wait_tensor" + n.name.substr(n.op->name.size());
      post.push(wait);
      post_to_pre.set(wait, Json::list(std::vector<std::string>{n.name}));
    }
    pre_to_post.set(n.name, post);
  }
  // Kernels by the name the code uses: every matmul is one extern_kernels.mm, as in PyTorch.
  std::vector<std::string> keys;
  std::map<std::string, std::vector<std::string>> kernel_nodes, node_kernels;
  for (const GraphKernel& k : cg.kernels) {
    if (k.code_key.empty()) continue;
    if (!kernel_nodes.count(k.code_key)) keys.push_back(k.code_key);
    for (int n : k.nodes) {
      kernel_nodes[k.code_key].push_back(g.nodes[n].name);
      auto& ks = node_kernels[g.nodes[n].name];
      if (std::find(ks.begin(), ks.end(), k.code_key) == ks.end()) ks.push_back(k.code_key);
    }
  }
  Json code_to_post = Json::object(), post_to_code = Json::object();
  for (const std::string& key : keys) code_to_post.set(key, Json::list(kernel_nodes[key]));
  for (const Node& n : g.nodes)
    if (node_kernels.count(n.name)) post_to_code.set(n.name, Json::list(node_kernels[n.name]));
  Json m = Json::object();
  m.set("preToPost", pre_to_post)
      .set("postToPre", post_to_pre)
      .set("cppCodeToPost", code_to_post)
      .set("postToCppCode", post_to_code);
  return m;
}

}  // namespace tlrt
