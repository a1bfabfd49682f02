// The readers behind compare's graph, guard and output-code differences: FX graph node lines
// (fx_graph_text.hpp), guard sets (guard_set.hpp) and the kernels of an output code
// (output_code_kernels.hpp), on text as PyTorch prints it.
#include <catch2/catch.hpp>

#include "tlscope/views/fx_graph_text.hpp"
#include "tlscope/views/guard_set.hpp"
#include "tlscope/views/output_code_kernels.hpp"

using namespace tlscope::views;

namespace {

// dynamo_output_graph of PyTorch 2.6 (simple.log's shape), with a method call, a module call, a
// get_attr and a symbolic size added.
constexpr const char* kGraph = R"GRAPH(class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[s0, 320][320, 1]cuda:0", s0: "Sym(s0)"):
        l_x_ = L_x_

         # File: /data/test.py:11119 in helper, code: out = F.gelu(x)
        out: "f32[s0, 320][320, 1]cuda:0" = torch._C._nn.gelu(l_x_);  l_x_ = None
        view: "bf16[s0, 20, 16][320, 16, 1]cuda:0" = out.view(s0, 20, 16)
        l__self___linear = self.L__self___linear(view);  view = None
        w = self.weight
        baz: "f32[4][1]cpu" = torch.ops.test.baz.default(out, 0.1, True);  out = None
        return (baz,)
)GRAPH";

}  // namespace

TEST_CASE("fx graph text: ops, targets, dtypes and sizes of each node") {
  const std::vector<FxNode> nodes = parse_fx_graph(kGraph);
  REQUIRE(nodes.size() == 8);
  CHECK(nodes[0].op == "placeholder");
  CHECK(nodes[0].name == "L_x_");
  CHECK(tensor_text(nodes[0]) == "f32[s0, 320]");
  CHECK(has_symbolic_dim(nodes[0]));
  CHECK(nodes[1].name == "s0");
  CHECK_FALSE(nodes[1].tensor);  // Sym(s0) is no tensor
  CHECK(nodes[2].op == "call_function");
  CHECK(nodes[2].target == "torch._C._nn.gelu");
  CHECK(nodes[3].op == "call_method");  // out is a node: out.view(...) is its method
  CHECK(nodes[3].target == ".view");
  CHECK(nodes[3].dtype == "bf16");
  CHECK(nodes[3].dims == std::vector<std::string>{"s0", "20", "16"});
  CHECK(nodes[4].op == "call_module");
  CHECK(nodes[4].target == "self.L__self___linear");
  CHECK(nodes[5].op == "get_attr");
  CHECK(nodes[6].target == "torch.ops.test.baz.default");
  CHECK(tensor_text(nodes[6]) == "f32[4]");
  CHECK_FALSE(has_symbolic_dim(nodes[6]));
  CHECK(nodes[7].op == "output");
}

TEST_CASE("fx graph text: what is not a node line is skipped, never guessed at") {
  CHECK(parse_fx_graph("").empty());
  CHECK(parse_fx_graph("not a graph at all\n\x01\x02 = = =\n").empty());
  // A line cut inside its annotation (a truncated payload) is no node.
  CHECK(parse_fx_graph("        add: \"f32[4, 6").empty());
  // No annotation (older graphs): the node without a tensor.
  const auto nodes = parse_fx_graph("    def forward(self, x):\n        add = torch.add(x, 1)\n");
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[1].target == "torch.add");
  CHECK_FALSE(nodes[1].tensor);
}

TEST_CASE("guard set: object ids and addresses do not make guards differ, sizes do") {
  const char* a = R"J([{"code": "___check_obj_id(L['self'], 140234567890123)"},
                      {"code": "check_tensor(L['x'], Tensor, torch.float32, size=[4, 6])"}])J";
  const char* b = R"J([{"code": "check_tensor(L['x'], Tensor, torch.float32, size=[4, 6])"},
                      {"code": "___check_obj_id(L['self'], 139998877665544)"}])J";
  CHECK(guard_set("dynamo_guards", a) == guard_set("dynamo_guards", b));
  const char* c = R"J([{"code": "check_tensor(L['x'], Tensor, torch.float32, size=[8, 6])"}])J";
  CHECK(guard_set("dynamo_guards", a) != guard_set("dynamo_guards", c));
  CHECK(guard_set("dynamo_guards", "not json").empty());
  // TYPE_MATCH names the type by its id, an address printed in decimal.
  CHECK(guard_set("dynamo_guards", R"J([{"code": "___check_type_id(L['m'], 94823749823744)"}])J") ==
        guard_set("dynamo_guards", R"J([{"code": "___check_type_id(L['m'], 93001122334455)"}])J"));
}

TEST_CASE("guard set: the C++ guard tree's leaves, not its managers") {
  const char* tree =
      "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n"
      "| +- GLOBAL_STATE: ___check_global_state()\n"
      "| +- GuardManager: source=L['x'], accessed_by=DictGetItemGuardAccessor('x')\n"
      "| | +- TENSOR_MATCH: check_tensor(L['x'], size=[4, 6])\n"
      "| | +- ID_MATCH: ___check_obj_id(L['x'], 0x7f3a2b1c4d50)\n";
  const std::vector<std::string> g = guard_set("dynamo_cpp_guards_str", tree);
  REQUIRE(g.size() == 3);
  CHECK(g == guard_set("dynamo_cpp_guards_str",
                       std::string(tree).replace(std::string(tree).find("0x7f3a"), 6, "0x7f00")));
}

TEST_CASE("output code kernels: definitions, not calls or the kernels' own source") {
  const char* code =
      "async_compile = AsyncCompile()\n"
      "triton_poi_fused_gelu_0 = async_compile.triton('triton_poi_fused_gelu_0', '''\n"
      "    x = tl.load(in_ptr0)\n"
      "''', device_str='cuda')\n"
      "cpp_fused_sum_1 = async_compile.cpp_pybinding(['float*'], '''\n"
      "extern \"C\" void kernel(float* out) {}\n"
      "''')\n"
      "async_compile.wait(globals())\n"
      "def call(args):\n"
      "    triton_poi_fused_gelu_0.run(buf0, grid=grid(4))\n";
  CHECK(output_code_kernels(code) ==
        std::vector<std::string>{"triton_poi_fused_gelu_0", "cpp_fused_sum_1"});
  CHECK(output_code_kernels("").empty());
}
