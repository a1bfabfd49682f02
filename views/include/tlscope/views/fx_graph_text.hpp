// The structure of an FX graph as PyTorch prints it (GraphModule.print_readable: the payload of
// dynamo_output_graph and the other graph records): its nodes with their op, target and the
// tensor each produces, so two runs' graphs compare as structure rather than as text. The one
// parser of graph node lines in views/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tlscope::views {

struct FxNode {
  std::string name;    // the node's name ("l_x_", "add_1"); a placeholder's argument name
  std::string op;      // placeholder, call_function, call_method, call_module, get_attr, output
  std::string target;  // "torch.sin", "torch.ops.aten.mm.default", ".view", "self.linear"
  std::string dtype;   // "f32"; "" when the line carries no tensor annotation
  std::vector<std::string> dims;  // "4", "s0", "s0*2"; empty for a scalar or no annotation
  bool tensor = false;            // the annotation is one tensor ("f32[4, 6]...")
};

// Every node line of every forward() in `text` (nested submodules included), in order. Lines it
// does not read (comments, class and def lines, blank lines) are skipped, never guessed at.
std::vector<FxNode> parse_fx_graph(std::string_view text);

// "f32[4, 6]": dtype and sizes, without strides and device; "" when the node has no tensor.
std::string tensor_text(const FxNode& n);
// A dim is symbolic when it is not a plain integer ("s0", "2*s1", "u0").
bool has_symbolic_dim(const FxNode& n);

}  // namespace tlscope::views
