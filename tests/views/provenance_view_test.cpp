// The provenance screen over the real JIT and AOT logs: panes from the logged graphs and code,
// and for a node or kernel the lines it highlights in each pane (line numbers read off the logs:
// the JIT log's after_post_grad_graph payload starts at line 721, before_pre_grad_graph at 131,
// inductor_output_code at 919).
#include <catch2/catch.hpp>

#include <algorithm>

#include "tlscope/views/provenance.hpp"
#include "views/real_db.hpp"

using namespace tlscope::views;

namespace {

const ProvenanceItem* item(const ProvenanceView& v, ProvenanceItemKind kind,
                           const std::string& name) {
  for (const auto& i : v.items)
    if (i.kind == kind && i.name == name) return &i;
  return nullptr;
}

std::vector<int> range(int first, int last) {
  std::vector<int> v;
  for (int i = first; i <= last; ++i) v.push_back(i);
  return v;
}

}  // namespace

TEST_CASE("provenance view of the JIT log: a kernel highlights its nodes in both graphs") {
  Database db(
      tlscope::test::analysed_real_log("provenance_jit", {"inductor_provenance_jit_log.txt"}));
  REQUIRE(db.ok());
  auto graphs = load_provenance_graphs(db);
  REQUIRE(graphs.ok());
  REQUIRE(graphs->size() == 1);
  const ProvenanceGraphRow& g = graphs->front();
  CHECK(g.label() == "[0/0]");
  // preToPost has six pre-grad nodes; eleven post-grad nodes; cppCodeToPost three kernels.
  CHECK(g.pre_nodes == 6);
  CHECK(g.post_nodes == 11);
  CHECK(g.kernels == 3);
  auto loaded = load_provenance(db, g.id);
  INFO(loaded.error);
  REQUIRE(loaded.ok());
  const ProvenanceView& v = *loaded;
  CHECK(v.panes[kPrePane].source == "before_pre_grad_graph");
  CHECK(v.panes[kPostPane].source == "after_post_grad_graph");
  CHECK(v.panes[kCodePane].source == "inductor_output_code");
  CHECK(v.missing.empty());
  // after_post_grad_graph is 26 payload lines (721-746).
  CHECK(v.panes[kPostPane].lines.size() == 26);
  const ProvenanceItem* k = item(v, ProvenanceItemKind::kKernel, "cpp_fused_mul_relu_sigmoid_0");
  REQUIRE(k);
  CHECK(k->post_nodes == std::vector<std::string>{"mul", "relu", "sigmoid"});
  CHECK(k->pre_nodes == std::vector<std::string>{"d", "x_1", "x_2"});
  // relu, sigmoid, mul on post-grad lines 8, 11, 14; x_1, x_2, d on pre-grad lines 14, 17, 20;
  // the kernel's definition on output-code lines 32-68 and its call on 138 (indexes are 0-based).
  CHECK(k->lines[kPostPane] == std::vector<int>{7, 10, 13});
  CHECK(k->lines[kPrePane] == std::vector<int>{13, 16, 19});
  std::vector<int> code = range(31, 67);
  code.push_back(137);
  CHECK(k->lines[kCodePane] == code);
  CHECK(v.panes[kCodePane].lines[137].text ==
        "    cpp_fused_mul_relu_sigmoid_0(buf1, arg3_1, buf2)");
  // The call line selects the kernel.
  int index = static_cast<int>(k - v.items.data());
  CHECK(v.panes[kCodePane].lines[137].items == std::vector<int>{index});
  // Pre-grad z: its five post-grad nodes on lines 20-24 and cpp_fused_gelu_1's lines.
  const ProvenanceItem* z = item(v, ProvenanceItemKind::kPreNode, "z");
  REQUIRE(z);
  CHECK(z->kernels == std::vector<std::string>{"cpp_fused_gelu_1"});
  CHECK(z->lines[kPostPane] == range(19, 23));
  CHECK(std::count(z->lines[kCodePane].begin(), z->lines[kCodePane].end(), 70) == 1);
  CHECK(std::count(z->lines[kCodePane].begin(), z->lines[kCodePane].end(), 146) == 1);
  CHECK(v.panes[kPrePane].lines[25].items ==
        std::vector<int>{static_cast<int>(z - v.items.data())});
}

TEST_CASE("provenance view of the AOT log: wrapper and kernel file in one code pane") {
  Database db(
      tlscope::test::analysed_real_log("provenance_aot", {"inductor_provenance_aot_log.txt"}));
  auto graphs = load_provenance_graphs(db);
  REQUIRE(graphs->size() == 1);
  CHECK(graphs->front().label() == "AOT graph 1");
  auto loaded = load_provenance(db, graphs->front().id);
  REQUIRE(loaded.ok());
  const ProvenanceView& v = *loaded;
  CHECK(v.panes[kCodePane].source == "inductor_aot_wrapper_code, inductor_aot_kernel_code");
  CHECK(v.panes[kCodePane].lines.front().text == "// inductor_aot_wrapper_code");
  const ProvenanceItem* k = item(v, ProvenanceItemKind::kKernel, "aoti_torch_cpu_addmm_out");
  REQUIRE(k);
  // Called on wrapper lines 814 and 830 (log lines 1637, 1653), after the heading line.
  CHECK(k->lines[kCodePane] == std::vector<int>{814, 830});
  CHECK(v.panes[kCodePane].lines[814].text.find("aoti_torch_cpu_addmm_out(buf0") !=
        std::string::npos);
  CHECK(k->pre_nodes == std::vector<std::string>{"addmm", "linear", "mul"});
}

TEST_CASE(
    "provenance view of a database without provenance is empty, and a missing graph says so") {
  Database db(tlscope::test::analysed_real_log("provenance_none", {"simple.log"}));
  auto graphs = load_provenance_graphs(db);
  CHECK(graphs.ok());
  CHECK(graphs->empty());
  auto missing = load_provenance(db, 42);
  CHECK_FALSE(missing.ok());
  CHECK(missing.error.find("no provenance graph 42") != std::string::npos);
}

// The listing is skipped when one query finds no graph (most logs); with graphs it lists every
// row of provenance_graphs.
TEST_CASE("provenance graphs: none for a log without provenance, every one for a log with it") {
  std::string plain = tlscope::test::analysed_real_log("provenance_graphs_none", {"simple.log"});
  Database none(plain);
  auto empty = load_provenance_graphs(none);
  INFO(empty.error);
  CHECK(empty.ok());
  CHECK(empty->empty());
  CHECK(tlscope::test::query_rows(plain, "SELECT count(*) FROM provenance_graphs") ==
        std::vector<std::string>{"0"});

  std::string jit = tlscope::test::analysed_real_log("provenance_graphs_jit",
                                                     {"inductor_provenance_jit_log.txt"});
  Database db(jit);
  auto graphs = load_provenance_graphs(db);
  REQUIRE(graphs.ok());
  std::vector<std::string> ids;
  for (const ProvenanceGraphRow& g : *graphs) ids.push_back(std::to_string(g.id));
  CHECK_FALSE(ids.empty());
  CHECK(ids == tlscope::test::query_rows(jit, "SELECT id FROM provenance_graphs ORDER BY id"));
}
