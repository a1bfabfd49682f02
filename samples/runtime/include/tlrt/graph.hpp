// The graph IR compile() produces: an FX-like list of nodes with tensor metadata, printed the way
// Dynamo (dynamo_output_graph) and AOTAutograd (aot_inference_graph) print their graphs.
#pragma once
#include <string>
#include <vector>

#include "tlrt/json.hpp"
#include "tlrt/ops.hpp"

namespace tlrt {

struct Node {
  std::string name;            // FX node name, unique in the graph
  const OpInfo* op = nullptr;  // nullptr for placeholders
  std::vector<int> inputs;     // node indices
  OpAttrs attrs;
  Shape sizes, strides;  // real values seen while tracing
  DType dtype = DType::f32;
  std::vector<std::string> sym_sizes, sym_strides;  // as printed (ints or symbols like s0)
  std::string source;                               // placeholders: L['x']
  std::string var;                                  // placeholders: x
  int line = 0;                                     // user source line (ops)
  std::string code, fn, file;
  bool is_placeholder() const { return op == nullptr; }
};

struct Graph {
  std::vector<Node> nodes;
  std::vector<int> outputs;              // node index per output
  std::vector<std::string> output_vars;  // env variable each output is stored to
  int op_count() const;                  // call_function nodes (graph_op_count)
  int input_count() const;
  std::vector<int> placeholders() const;
  bool has_collectives() const;
};

std::string print_dynamo_graph(const Graph& g);
std::string print_aot_graph(const Graph& g);
// dynamo_output_graph metadata: {"sizes": {node: [dims]}}
Json graph_sizes(const Graph& g);
std::string node_meta(const Node& n);  // "f32[4, 8][8, 1]cpu"
// The functional collective's op name ("all_reduce_") and its full call target
// ("torch.ops._c10d_functional.all_reduce_.default").
std::string c10d_op_name(const OpInfo& op);
std::string c10d_name(const OpInfo& op);

}  // namespace tlrt
