// Inductor provenance links on the real JIT and AOT logs (facts read off the logs, each with its
// line), on hand-written variants (debug-handle keys, triton kernels, older shapes, forward and
// backward under one compile id) and on hostile mapping records.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "analysis/analysis_harness.hpp"
#include "common/scratch_files.hpp"
#include "tlscope/parser/md5.hpp"
#include "tlscope/views/provenance.hpp"

using tlscope::test::AnalyzedDb;
using Rows = std::vector<std::string>;

namespace {

std::string log(const std::string& name) {
  return std::string(TLSCOPE_SHARED_LOGS) + "/" + name;
}

// One envelope with a payload, as PyTorch writes it (payload lines TAB-prefixed).
std::string record(const std::string& key_json, const std::string& payload) {
  std::string body;
  size_t start = 0;
  while (start <= payload.size()) {
    size_t nl = payload.find('\n', start);
    std::string line = payload.substr(start, nl == std::string::npos ? nl : nl - start);
    body += "\t" + line + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return "V0521 11:47:55.846000 2962972 torch/_inductor/compile_fx.py:967] {" + key_json +
         ", \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"" +
         tlscope::parser::Md5::hex_of(payload) + "\"}\n" + body;
}

std::string artifact(const std::string& name, const std::string& payload) {
  return record("\"artifact\": {\"name\": \"" + name + "\", \"encoding\": \"json\"}", payload);
}

std::string write_log(const std::string& name, const std::string& text) {
  auto dir = tlscope::test::fresh_scratch("test-analysis", "provenance_" + name);
  auto path = dir / (name + ".log");
  tlscope::test::spit(path, text);
  return path.string();
}

}  // namespace

TEST_CASE("provenance: the JIT log links pre-grad nodes, post-grad nodes, kernels and lines") {
  AnalyzedDb db("provenance_jit", {log("inductor_provenance_jit_log.txt")});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  REQUIRE(db.ingest_problems() == "");
  // One Inductor graph for compile 0/0; before_pre_grad_graph ends "# graph id: 140502189412416".
  CHECK(db.rows("SELECT compile_id, seq, mode, pre_graph_id FROM provenance_graphs") ==
        Rows{"0/0|0|jit|140502189412416"});
  // Line 1621, cppCodeToPost: "cpp_fused_mul_relu_sigmoid_0": ["sigmoid", "relu", "mul"] and
  // "extern_kernels.addmm": ["addmm", "addmm_1", "mul"].
  CHECK(db.rows("SELECT post_node FROM provenance_kernel_links WHERE source = 'cppCodeToPost' "
                "AND kernel_key = 'cpp_fused_mul_relu_sigmoid_0' ORDER BY id") ==
        Rows{"sigmoid", "relu", "mul"});
  // inductor_triton_kernel_to_post_grad_nodes (line 1619) says the same, backend from the name.
  CHECK(db.rows("SELECT DISTINCT kernel, backend FROM provenance_kernel_links WHERE post_node = "
                "'addmm_1' ORDER BY 2") ==
        Rows{"extern_kernels.addmm|cpp", "extern_kernels.addmm|extern"});
  // The other direction, postToCppCode: "mul": ["cpp_fused_mul_relu_sigmoid_0",
  // "extern_kernels.addmm"].
  CHECK(db.rows("SELECT kernel_key FROM provenance_kernel_links WHERE source = 'postToCppCode' "
                "AND post_node = 'mul' ORDER BY id") ==
        Rows{"cpp_fused_mul_relu_sigmoid_0", "extern_kernels.addmm"});
  // preToPost "z": ["mul_1", "mul_2", "erf", "add", "mul_3"]; postToPre "mul": ["d"].
  CHECK(db.rows("SELECT post_node FROM provenance_node_links WHERE source = 'preToPost' AND "
                "pre_node = 'z' ORDER BY id") == Rows{"mul_1", "mul_2", "erf", "add", "mul_3"});
  CHECK(db.rows("SELECT DISTINCT pre_node FROM provenance_node_links WHERE post_node = 'mul'") ==
        Rows{"d"});
  // inductor_post_to_pre_grad_nodes (line 748): eleven post-grad nodes, each from one node of
  // graph 140502189412416 (permute from "x").
  CHECK(db.scalar("SELECT count(*) FROM provenance_node_links WHERE source = "
                  "'post_to_pre_grad_nodes'") == "11");
  CHECK(db.scalar("SELECT pre_node FROM provenance_node_links WHERE source = "
                  "'post_to_pre_grad_nodes' AND post_node = 'permute'") == "x");
  // inductor_output_code (payload from line 919): cpp_fused_mul_relu_sigmoid_0 is defined on its
  // lines 32-68 (log lines 950-986) and called on line 138; extern_kernels.addmm called on 132,
  // 142.
  CHECK(db.rows("SELECT code, line, end_line, role FROM provenance_code_lines WHERE kernel_key = "
                "'cpp_fused_mul_relu_sigmoid_0' ORDER BY line") ==
        Rows{"inductor_output_code|32|68|definition", "inductor_output_code|138|138|call"});
  CHECK(db.rows("SELECT line, role FROM provenance_code_lines WHERE kernel = "
                "'extern_kernels.addmm' ORDER BY line") == Rows{"132|call", "142|call"});
  CHECK(db.rows("SELECT line, role FROM provenance_code_lines WHERE kernel = 'cpp_fused_gelu_1' "
                "ORDER BY line") == Rows{"71|definition", "147|call"});
  // before_pre_grad_graph (payload from line 131): x on its line 11; after_post_grad_graph
  // (payload from line 721): addmm on its line 5.
  CHECK(db.rows("SELECT line FROM provenance_node_lines WHERE pane = 'pre' AND node = 'x'") ==
        Rows{"11"});
  CHECK(db.rows("SELECT line FROM provenance_node_lines WHERE pane = 'post' AND node = 'addmm'") ==
        Rows{"5"});
  CHECK(db.scalar("SELECT count(*) FROM provenance_errors") == "0");
}

TEST_CASE("provenance: the AOT log has no compile id, a C++ wrapper and a kernel file") {
  AnalyzedDb db("provenance_aot", {log("inductor_provenance_aot_log.txt")});
  REQUIRE(db.report().ok);
  REQUIRE(db.ingest_problems() == "");
  CHECK(db.rows("SELECT compile_id, mode, pre_graph_id, kernel_code_event_id IS NOT NULL FROM "
                "provenance_graphs") == Rows{"NULL|aot|139705807944448|1"});
  // Line 1899: "aoti_torch_cpu_addmm_out": ["addmm", "addmm_1", "mul"]; preToPost "linear":
  // ["permute", "addmm"].
  CHECK(db.rows("SELECT post_node FROM provenance_kernel_links WHERE source = 'cppCodeToPost' AND "
                "kernel = 'aoti_torch_cpu_addmm_out' ORDER BY id") ==
        Rows{"addmm", "addmm_1", "mul"});
  CHECK(db.rows("SELECT post_node FROM provenance_node_links WHERE source = 'preToPost' AND "
                "pre_node = 'linear' ORDER BY id") == Rows{"permute", "addmm"});
  // The wrapper (payload from line 824) declares cpp_fused_mul_relu_sigmoid_0 on line 1259 and
  // calls it on 1645; aoti_torch_cpu_addmm_out is called on 1637 and 1653. The kernel file
  // (payload from line 1668) defines it on line 1671.
  CHECK(db.rows("SELECT code, line, role FROM provenance_code_lines WHERE kernel = "
                "'cpp_fused_mul_relu_sigmoid_0' ORDER BY code DESC, line") ==
        Rows{"inductor_aot_wrapper_code|436|declaration", "inductor_aot_wrapper_code|822|call",
             "inductor_aot_kernel_code|4|definition"});
  CHECK(db.rows("SELECT line FROM provenance_code_lines WHERE kernel = "
                "'aoti_torch_cpu_addmm_out' ORDER BY line") == Rows{"814", "830"});
  // before_pre_grad_graph (payload from line 40): linear on its line 8.
  CHECK(db.rows("SELECT line FROM provenance_node_lines WHERE pane = 'pre' AND node = 'linear'") ==
        Rows{"8"});
  CHECK(db.scalar("SELECT count(*) FROM provenance_errors") == "0");
}

TEST_CASE("provenance: triton kernels with debug handles, stack traces and a backward graph") {
  const std::string code =
      "triton_poi_fused_mul_0 = async_compile.triton('triton_poi_fused_mul_0', '''\n"
      "@triton.jit\n"
      "def triton_poi_fused_mul_0(in_ptr0, out_ptr0):\n"
      "    pass\n"
      "''', device_str='cuda')\n"
      "def call(args):\n"
      "    # Topologically Sorted Source Nodes: [mul], Original ATen: [aten.mul]\n"
      "    # [Provenance debug handles] triton_poi_fused_mul_0:1\n"
      "    triton_poi_fused_mul_0.run(arg0_1, buf0, 16, stream=stream0)\n"
      "    # [Provenance debug handles] extern_kernels.mm:2\n"
      "    extern_kernels.mm(buf0, arg1_1, out=buf1)\n"
      "    # [Provenance debug handles] extern_kernels.mm:3\n"
      "    extern_kernels.mm(buf1, arg1_1, out=buf2)\n";
  std::string text =
      artifact("before_pre_grad_graph",
               "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[4]\"):\n"
               "        y: \"f32[4]\" = L_x_ * 2\n        return (y,)\n\n # graph id: 7") +
      artifact("after_post_grad_graph",
               "class <lambda>(torch.nn.Module):\n    def forward(self, arg0_1: \"f32[4]\"):\n"
               "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(arg0_1, 2)\n"
               "        mm: \"f32[4]\" = torch.ops.aten.mm.default(mul, arg1_1)\n"
               "        mm_1: \"f32[4]\" = torch.ops.aten.mm.default(mm, arg1_1)\n") +
      artifact("inductor_post_to_pre_grad_nodes",
               "{\"mul\": [{\"name\": \"mul\", \"graph_id\": 9, \"from_node\": [{\"name\": \"y\", "
               "\"graph_id\": 7, \"from_node\": []}]}]}") +
      record("\"inductor_output_code\": {\"filename\": \"/tmp/x.py\"}", code) +
      artifact("inductor_provenance_tracking_node_mappings",
               "{\"preToPost\": {\"y\": [\"mul\"]}, \"pythonCodeToPost\": "
               "{\"triton_poi_fused_mul_0:1\": [\"mul\"], \"extern_kernels.mm:2\": [\"mm\"], "
               "\"extern_kernels.mm:3\": [\"mm_1\"]}, \"version\": 2.0}") +
      artifact("inductor_provenance_tracking_kernel_stack_traces",
               "{\"triton_poi_fused_mul_0:1\": [\"File \\\"m.py\\\", line 3, in forward\", "
               "\"    y = x * 2\"]}") +
      // The backward graph of the same compile: a second post-grad graph and mapping.
      artifact("after_post_grad_graph",
               "class <lambda>(torch.nn.Module):\n    def forward(self, tangents_1):\n"
               "        mul_1: \"f32[4]\" = tangents_1 * 2\n") +
      artifact("inductor_triton_kernel_to_post_grad_nodes",
               "{\"triton_poi_fused_mul_1\": [\"mul_1\"]}");
  AnalyzedDb db("provenance_variants", {write_log("variants", text)});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT compile_id, seq, mode, pre_graph_id, pre_graph_event_id IS NOT NULL FROM "
                "provenance_graphs ORDER BY id") == Rows{"0/0|0|jit|7|1", "0/0|1|NULL|7|1"});
  CHECK(db.rows("SELECT kernel_key, kernel, debug_handle, backend, post_node FROM "
                "provenance_kernel_links ORDER BY id") ==
        Rows{"triton_poi_fused_mul_0:1|triton_poi_fused_mul_0|1|python|mul",
             "extern_kernels.mm:2|extern_kernels.mm|2|python|mm",
             "extern_kernels.mm:3|extern_kernels.mm|3|python|mm_1",
             "triton_poi_fused_mul_1|triton_poi_fused_mul_1|NULL|triton|mul_1"});
  // Each mm call site belongs to its own handle; the triton kernel's definition block is 1-5.
  CHECK(db.rows("SELECT kernel_key, line, end_line, role FROM provenance_code_lines ORDER BY "
                "kernel_key, line") ==
        Rows{"extern_kernels.mm:2|10|10|handle", "extern_kernels.mm:2|11|11|call",
             "extern_kernels.mm:3|12|12|handle", "extern_kernels.mm:3|13|13|call",
             "triton_poi_fused_mul_0:1|1|5|definition", "triton_poi_fused_mul_0:1|8|8|handle",
             "triton_poi_fused_mul_0:1|9|9|call"});
  // The from_node chain: "mul" came from "y" of graph 7, the pre-grad graph.
  CHECK(db.rows("SELECT pre_node, post_node FROM provenance_node_links WHERE source = "
                "'post_to_pre_grad_nodes'") == Rows{"y|mul"});
  CHECK(db.rows("SELECT kernel_key, stack FROM provenance_kernel_stacks") ==
        Rows{"triton_poi_fused_mul_0:1|File \"m.py\", line 3, in forward\n    y = x * 2"});
  CHECK(db.rows("SELECT g.seq, l.node FROM provenance_node_lines l JOIN provenance_graphs g ON "
                "g.id = l.graph_id WHERE l.pane = 'post' ORDER BY g.seq, l.line, l.node") ==
        Rows{"0|arg0_1", "0|mul", "0|mm", "0|mm_1", "1|tangents_1", "1|mul_1"});
}

TEST_CASE("provenance: hostile mapping records become provenance_errors naming file and line") {
  std::string deep(3000, '[');
  std::string text = artifact("inductor_provenance_tracking_node_mappings", "{\"preToPost\": ") +
                     artifact("inductor_triton_kernel_to_post_grad_nodes", "[1, 2, 3]") +
                     artifact("inductor_post_to_pre_grad_nodes", deep) +
                     artifact("inductor_provenance_tracking_kernel_stack_traces",
                              "{\"k\": {\"nested\": 1}, \"j\": 5}");
  // A later graph of the compile with sections of the wrong types and odd values.
  text += artifact("inductor_provenance_tracking_node_mappings",
                   "{\"preToPost\": [\"a\"], \"postToPre\": {\"p\": {\"x\": 1}, \"q\": \"r\", "
                   "\"s\": [null, 3, {\"a\": 1}]}, \"cppCodeToPost\": \"k\"}");
  std::string path = write_log("hostile", text);
  AnalyzedDb db("provenance_hostile", {path});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(*) FROM provenance_graphs") == "2");
  // Each unreadable record as facts: the artifact, its log line, the problem and what was found.
  Rows errors = db.rows(
      "SELECT artifact, line, problem, coalesce(section, ''), coalesce(json_type, '') FROM "
      "provenance_errors ORDER BY id");
  REQUIRE(errors.size() == 5);
  CHECK(errors[0] == "inductor_provenance_tracking_node_mappings|1|invalid_json||");
  CHECK(errors[1] == "inductor_triton_kernel_to_post_grad_nodes|3|not_object||array");
  CHECK(errors[2] == "inductor_post_to_pre_grad_nodes|5|invalid_json||");
  CHECK(errors[3].find("|section_not_object|preToPost|array") != std::string::npos);
  CHECK(errors[4].find("|section_not_object|cppCodeToPost|text") != std::string::npos);
  // views/ words them, naming the file and line.
  tlscope::views::Database vdb(db.path());
  std::vector<std::string> words;
  for (const std::string& id :
       db.rows("SELECT DISTINCT graph_id FROM provenance_errors ORDER BY graph_id")) {
    auto view = tlscope::views::load_provenance(vdb, std::stoll(id));
    REQUIRE(view.ok());
    words.insert(words.end(), view->errors.begin(), view->errors.end());
  }
  REQUIRE(words.size() == 5);
  CHECK(words[0] == "inductor_provenance_tracking_node_mappings at " + path +
                        ":1: the payload is not valid JSON");
  CHECK(words[1] == "inductor_triton_kernel_to_post_grad_nodes at " + path +
                        ":3: the payload is a JSON array, not an object");
  CHECK(words[2] ==
        "inductor_post_to_pre_grad_nodes at " + path + ":5: the payload is not valid JSON");
  CHECK(words[3].find("'preToPost' is a JSON array, not an object") != std::string::npos);
  CHECK(words[4].find("'cppCodeToPost' is a JSON text, not an object") != std::string::npos);
  // What was readable still links: postToPre "q": "r" (one name) and "s": [null, 3, {...}].
  CHECK(db.rows("SELECT pre_node, post_node FROM provenance_node_links ORDER BY id") ==
        Rows{"r|q", "3|s"});
  CHECK(db.scalar("SELECT count(*) FROM provenance_kernel_stacks") == "0");
}

namespace {

std::string joined(simdjson::dom::array a) {
  std::vector<std::string> v;
  for (simdjson::dom::element e : a) {
    if (e.is_string())
      v.emplace_back(std::string_view(e.get_string().value()));
    else
      v.push_back(std::to_string(int64_t(e.get_int64().value())));
  }
  std::sort(v.begin(), v.end());
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

}  // namespace

TEST_CASE("provenance: the sample runtime's kernels, nodes and lines match its truth.json") {
  namespace fs = std::filesystem;
  const std::string sample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(sample));
  fs::path dir = tlscope::test::fresh_scratch("test-analysis", "provenance-sample");
  // INDUCTOR_PROVENANCE=1 turns provenance tracking on, as it does in PyTorch.
  std::string cmd = "INDUCTOR_PROVENANCE=1 " + sample + " mlp --out " + dir.string() + " > " +
                    (dir / "run.txt").string() + " 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  AnalyzedDb db("provenance_sample", {dir.string()});
  REQUIRE(db.report().ok);
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load((dir / "truth.json").string()).get(truth));
  std::multiset<std::string> kernels, pre, lines;
  simdjson::dom::array entries;
  REQUIRE_FALSE(truth["provenance"].get(entries));
  for (simdjson::dom::element e : entries) {
    std::string head = std::string(std::string_view(e["compile_id"].get_string().value())) + "|" +
                       std::string(std::string_view(e["kernel"].get_string().value()));
    kernels.insert(head + "|" + joined(e["post_nodes"].get_array().value()));
    pre.insert(head + "|" + joined(e["pre_nodes"].get_array().value()));
    std::vector<std::string> at;
    if (int64_t def = e["def_line"].get_int64().value()) at.push_back(std::to_string(def));
    simdjson::dom::array calls = e["call_lines"].get_array().value();
    for (simdjson::dom::element l : calls)
      at.push_back(std::to_string(int64_t(l.get_int64().value())));
    std::sort(at.begin(), at.end());
    std::string s;
    for (const auto& x : at) s += (s.empty() ? "" : ",") + x;
    lines.insert(head + "|" + s);
  }
  REQUIRE(kernels.size() >= 2);  // mlp: fused pointwise kernels and matmuls
  auto rows = [&](const std::string& sql) {
    auto v = db.rows(sql);
    return std::multiset<std::string>(v.begin(), v.end());
  };
  CHECK(rows("SELECT g.compile_id || '|' || k.kernel_key || '|' || group_concat(k.post_node, ',') "
             "FROM (SELECT DISTINCT graph_id, kernel_key, post_node FROM provenance_kernel_links "
             "ORDER BY post_node) k JOIN provenance_graphs g ON g.id = k.graph_id "
             "GROUP BY g.id, k.kernel_key") == kernels);
  // Pre-grad nodes of a kernel: through its post-grad nodes.
  CHECK(rows("SELECT g.compile_id || '|' || x.kernel_key || '|' || group_concat(x.pre_node, ',') "
             "FROM (SELECT DISTINCT k.graph_id, k.kernel_key, n.pre_node FROM "
             "provenance_kernel_links k JOIN provenance_node_links n ON n.graph_id = k.graph_id "
             "AND n.post_node = k.post_node ORDER BY n.pre_node) x JOIN provenance_graphs g ON "
             "g.id = x.graph_id GROUP BY g.id, x.kernel_key") == pre);
  // Lines: the definition's first line and every call, sorted as text like the truth's.
  auto got = db.rows(
      "SELECT g.compile_id || '|' || c.kernel_key, c.line FROM provenance_code_lines c JOIN "
      "provenance_graphs g ON g.id = c.graph_id ORDER BY g.id, c.kernel_key");
  std::map<std::string, std::vector<std::string>> by_kernel;
  for (const std::string& r : got) {
    size_t bar = r.rfind('|');
    by_kernel[r.substr(0, bar)].push_back(r.substr(bar + 1));
  }
  std::multiset<std::string> got_lines;
  for (auto& [k, v] : by_kernel) {
    std::sort(v.begin(), v.end());
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    got_lines.insert(k + "|" + s);
  }
  CHECK(got_lines == lines);
  CHECK(db.scalar("SELECT count(*) FROM provenance_errors") == "0");
  CHECK(db.scalar("SELECT count(DISTINCT mode) || mode FROM provenance_graphs") == "1jit");
}

TEST_CASE("provenance: an AOT CUDA wrapper launches triton kernels through call_K") {
  // AOT Inductor on CUDA: the wrapper defines `call_K` launchers and calls them; records carry no
  // compile id. The kernel map is the older inductor_triton_kernel_to_post_grad_nodes alone.
  const std::string wrapper =
      "static inline void call_triton_poi_fused_relu_0(\n"
      "    const CUdeviceptr in_ptr0, int32_t xnumel, cudaStream_t stream_) {\n"
      "    launchKernel(kernels_.triton_poi_fused_relu_0, 1, 1, 1);\n"
      "}\n"
      "void AOTInductorModel::run_impl() {\n"
      "    call_triton_poi_fused_relu_0(buf0, 16, stream);\n"
      "}\n";
  auto bare = [](const std::string& key_json, const std::string& payload) {
    return "V0521 11:21:48.763000 2780273 torch/_inductor/codecache.py:1650] {" + key_json +
           ", \"has_payload\": \"" + tlscope::parser::Md5::hex_of(payload) + "\"}\n\t" + [&] {
             std::string s;
             for (char c : payload) s += c == '\n' ? std::string("\n\t") : std::string(1, c);
             return s.substr(0, s.size() - 1);
           }();
  };
  std::string text =
      bare(
          "\"graph_dump\": {\"name\": \"inductor_aot_wrapper_code\", \"type\": \"cpp\", "
          "\"filename\": \"/tmp/w.wrapper.cpp\"}",
          wrapper) +
      bare(
          "\"artifact\": {\"name\": \"inductor_triton_kernel_to_post_grad_nodes\", \"encoding\": "
          "\"json\"}",
          "{\"triton_poi_fused_relu_0\": [\"relu\"]}\n");
  AnalyzedDb db("provenance_aot_cuda", {write_log("aot_cuda", text)});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT compile_id, mode FROM provenance_graphs") == Rows{"NULL|aot"});
  CHECK(db.rows("SELECT backend, post_node FROM provenance_kernel_links") == Rows{"triton|relu"});
  CHECK(db.rows("SELECT line, end_line, role FROM provenance_code_lines ORDER BY line") ==
        Rows{"1|4|definition", "6|6|call"});
}
