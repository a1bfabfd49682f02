// The backend ("inductor"): lowers a graph into kernels (runs of pointwise ops fused into one loop
// nest, other ops as extern calls), prints them as generated code, and executes the kernels.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "tlrt/graph.hpp"
#include "tlrt/json.hpp"

namespace tlrt {

struct GraphKernel {
  bool fused = false;
  std::string name;          // cpp_fused_add_relu_0, or the extern op name
  std::vector<int> nodes;    // graph nodes computed, in order
  std::vector<int> inputs;   // graph nodes read from outside the kernel
  std::vector<int> outputs;  // graph nodes that escape the kernel
  Shape shape;               // fused: the iteration space
  // Provenance: the kernel's name in the generated code ("" for ops inlined as aten calls), and
  // the 1-based lines of inductor_output_code that define and call it (0 / empty when none).
  std::string code_key;
  int def_line = 0;
  std::vector<int> call_lines;
};

struct CompiledGraph {
  Graph graph;
  std::vector<GraphKernel> kernels;
  std::string code;       // inductor_output_code payload
  std::string cache_key;  // fx graph cache key
  std::vector<std::string> collective_schedule;
  Json runtime_meta;                // inductor_runtime_and_tensor_meta payload
  double estimated_runtime_ns = 0;  // the sum of runtime_meta's estimates (for truth.json)
};

struct BackendFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws BackendFailure for backend "broken_backend" (a deliberately failing compiler).
CompiledGraph inductor_compile(const Graph& g, const std::string& backend);
// inductor_provenance_tracking_node_mappings of a compiled graph: preToPost / postToPre between the
// dynamo graph's nodes and the AOT graph's, cppCodeToPost / postToCppCode between kernels and AOT
// nodes (keys as in the generated code).
Json provenance_node_mappings(const CompiledGraph& cg);
// Runs the kernels on the graph inputs (in placeholder order); returns the graph outputs.
std::vector<Tensor> run_compiled(const CompiledGraph& cg, const std::vector<Tensor>& inputs);

}  // namespace tlrt
