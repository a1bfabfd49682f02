// `tlscope compare` on two hand-written logs of one compile that differ in exactly what the
// structural comparison reads: the FX graph (a node added, an input made dynamic, a dtype), the
// guard set, the output code's kernels and the caches (a bypass with its reason, the remote
// cache's counts); and a third log that differs from the first only in object ids, addresses
// and its pid, which must give no difference at all.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "e2e/e2e_support.hpp"
#include "tlscope/parser/md5.hpp"
#include "tlscope/views/compare.hpp"

namespace {

struct Run {
  std::string pid = "100";
  std::string x_type = "f32[4, 6][6, 1]cpu";    // the input's annotation
  std::string add_type = "f32[4, 6][6, 1]cpu";  // the add node's
  bool mul = false, sym = false;
  std::vector<std::string> guards = {
      "check_tensor(L['x'], Tensor, torch.float32, size=[4, 6], stride=[6, 1])",
      "___check_obj_id(L['self'], 140234567890123)", "L['flag'] == True"};
  std::string kernel = "cpp_fused_add_0";
  std::string fx_cache = "fx_graph_cache_miss", fx_cache_payload = R"({"cache_state": "miss"})";
  std::string remote = R"("inductor_fx_remote_cache_hit_count": 1)";
  std::string frame_s = "1.0", inductor_s = "0.5";  // the metrics' compile phase times
};

std::string record(const Run& r, const std::string& envelope, const std::string& payload) {
  // The envelope's object, its closing brace replaced by the compile's ids (and the MD5).
  std::string out = "V1205 03:44:19.653000 " + r.pid + " m.py:1] ";
  out.append(envelope, 0, envelope.size() - 1);
  out += R"(, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)";
  if (!payload.empty())
    out += ", \"has_payload\": \"" + tlscope::parser::Md5::hex_of(payload) + "\"";
  out += "}\n";
  size_t pos = 0;
  while (!payload.empty() && pos <= payload.size()) {
    size_t end = payload.find('\n', pos);
    if (end == std::string::npos) end = payload.size();
    out += "\t";
    out.append(payload, pos, end - pos);
    out += "\n";
    pos = end + 1;
  }
  return out;
}

std::string log_of(const Run& r) {
  std::string graph = "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"" +
                      r.x_type + "\"" + (r.sym ? ", s0: \"Sym(s0)\"" : "") +
                      "):\n        l_x_ = L_x_\n        add: \"" + r.add_type +
                      "\" = torch.add(l_x_, 1);  l_x_ = None\n";
  if (r.mul) graph += "        mul: \"" + r.add_type + "\" = torch.mul(add, 2)\n";
  graph += "        return (add,)";
  std::string guards = "[\n";
  for (size_t i = 0; i < r.guards.size(); ++i)
    guards += (i ? ",\n" : "") + std::string("{\"code\": \"") + r.guards[i] + "\"}";
  guards += "\n]";
  const std::string code =
      "async_compile = AsyncCompile()\n" + r.kernel +
      " = async_compile.cpp_pybinding(['float*'], '''\nvoid kernel() {}\n''')\n"
      "async_compile.wait(globals())\n";
  std::string out;
  out += record(r, R"({"dynamo_output_graph": {"sizes": {}}})", graph);
  out += record(r, R"({"artifact": {"name": ")" + r.fx_cache + R"(", "encoding": "json"}})",
                r.fx_cache_payload);
  out += record(r, R"({"inductor_output_code": {"filename": "/tmp/torchinductor_u/ab/cab.py"}})",
                code);
  out += record(r, R"({"dynamo_guards": {}})", guards);
  out += record(r,
                R"({"compilation_metrics": {"compile_id": "0/0", "co_name": "f", )"
                R"("co_filename": "/src/model.py", "co_firstlineno": 5, "cache_size": 0, )"
                R"("duration_us": 1000, "graph_op_count": 1, "entire_frame_compile_time_s": )" +
                    r.frame_s + R"(, "inductor_compile_time_s": )" + r.inductor_s + ", " +
                    r.remote + "}}",
                "");
  return out;
}

Run changed_run() {
  Run b;
  b.x_type = "f32[s0, 6][6, 1]cpu";
  b.sym = true;
  b.add_type = "f16[s0, 6][6, 1]cpu";
  b.mul = true;
  b.guards = {"check_tensor(L['x'], Tensor, torch.float32, size=[None, 6], stride=[6, 1])",
              "___check_obj_id(L['self'], 139998877665544)", "L['flag'] == True"};
  b.kernel = "cpp_fused_add_mul_0";
  b.fx_cache = "fx_graph_cache_bypass";
  b.fx_cache_payload = R"({"cache_state": "bypass", "cache_bypass_reason": "Can't cache HOPs"})";
  b.remote = R"("inductor_fx_remote_cache_miss_count": 1)";
  return b;
}

e2e::fs::path write_logs(const std::string& name, const Run& a, const Run& b) {
  auto dir = e2e::scratch("structure_" + name);
  for (auto [file, run] : {std::pair{"a.log", &a}, std::pair{"b.log", &b}})
    std::ofstream(dir / file) << log_of(*run);
  return dir;
}

struct ReportedDifference {
  std::string kind, subject, a, b, text;
};

std::string json_text(simdjson::dom::element e) {
  return e.is_null() ? "(null)" : std::string(std::string_view(e));
}

std::vector<ReportedDifference> compare(const std::string& name, const Run& a, const Run& b) {
  auto dir = write_logs(name, a, b);
  auto r = e2e::run_tlscope(dir, "compare --format json " + e2e::q((dir / "a.log").string()) + " " +
                                     e2e::q((dir / "b.log").string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(r.out);
  std::vector<ReportedDifference> out;
  for (simdjson::dom::element d : doc["differences"].get_array())
    out.push_back({json_text(d["kind"]), json_text(d["subject"]), json_text(d["a"]),
                   json_text(d["b"]), json_text(d["text"])});
  return out;
}

}  // namespace

TEST_CASE("compare: a compile's graph, guards, kernels and caches as structure") {
  const std::vector<ReportedDifference> d = compare("changed", Run{}, changed_run());
  // Each expected difference once, in kDifferenceKinds order, and nothing else.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"cache_flip", "compile #0 fx_graph"},
      {"cache_flip", "compile #0 remote_fx_graph"},
      {"graph_node_added", "compile #0: placeholder s0"},
      {"graph_node_added", "compile #0: call_function torch.mul"},
      {"graph_dtype_changed", "compile #0: node `add`"},
      {"graph_shape_changed", "compile #0: node `L_x_`"},
      {"guard_added", "compile #0"},
      {"guard_removed", "compile #0"},
      {"kernel_added", "compile #0"},
      {"kernel_removed", "compile #0"},
  };
  REQUIRE(d.size() == expected.size());
  for (size_t i = 0; i < d.size(); ++i) {
    INFO(d[i].kind << ": " << d[i].text);
    CHECK(d[i].kind == expected[i].first);
    CHECK(d[i].subject.find(expected[i].second) != std::string::npos);
  }
  CHECK(d[0].a == "miss");
  CHECK(d[0].b == "bypass (Can't cache HOPs)");
  CHECK(d[1].a == "hit");
  CHECK(d[1].b == "miss");
  CHECK(d[3].a == "0");
  CHECK(d[3].b == "1");
  CHECK(d[4].a == "f32[4, 6]");
  CHECK(d[4].b == "f16[s0, 6]");
  CHECK(d[5].b == "f32[s0, 6]");
  CHECK(d[5].text.find("dynamic in B, static in A") != std::string::npos);
  CHECK(d[6].b.find("size=[None, 6]") != std::string::npos);
  CHECK(d[7].a.find("size=[4, 6]") != std::string::npos);
  CHECK(d[8].b == "cpp_fused_add_mul_0");
  CHECK(d[9].a == "cpp_fused_add_0");
}

TEST_CASE("compare: object ids, addresses and pids in graphs and guards are no difference") {
  Run a, b;
  b.pid = "4242";
  b.guards = {"check_tensor(L['x'], Tensor, torch.float32, size=[4, 6], stride=[6, 1])",
              "___check_obj_id(L['self'], 139998877665544)", "L['flag'] == True"};
  const std::vector<ReportedDifference> d = compare("ids", a, b);
  for (const ReportedDifference& x : d) INFO(x.kind << ": " << x.text);
  CHECK(d.empty());
}

TEST_CASE("compare: the structural differences reach the terminal, markdown and the HTML page") {
  const auto dir = write_logs("fronts", Run{}, changed_run());
  const std::string inputs =
      e2e::q((dir / "a.log").string()) + " " + e2e::q((dir / "b.log").string());
  auto text = e2e::run_tlscope(dir, "compare " + inputs);
  REQUIRE(text.exit_code == 0);
  for (const char* section : {"\nGraphs\n", "\nGuards\n", "\nOutput code\n", "\nCache\n"}) {
    INFO(section << " in\n" << text.out);
    CHECK(text.out.find(section) != std::string::npos);
  }
  CHECK(text.out.find("(dynamic in B, static in A)") != std::string::npos);
  auto md = e2e::run_tlscope(dir, "compare --format markdown " + inputs);
  REQUIRE(md.exit_code == 0);
  // Markdown escapes the underscores of the kind names.
  CHECK(md.out.find("| graph\\_shape\\_changed |") != std::string::npos);
  CHECK(md.out.find("| kernel\\_added |") != std::string::npos);
  auto html = e2e::run_tlscope(dir, "compare -o " + e2e::q((dir / "page").string()) + " " + inputs);
  REQUIRE(html.exit_code == 0);
  std::ifstream in(dir / "page" / "index.html");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(page.find("<h2>graphs</h2>") != std::string::npos);
  CHECK(page.find("<h2>guards</h2>") != std::string::npos);
  CHECK(page.find("cpp_fused_add_mul_0") != std::string::npos);
  CHECK(page.find("bypass (Can&#39;t cache HOPs)") != std::string::npos);
}

TEST_CASE("compare: a compile phase is a difference from half a second and a quarter on") {
  // 1.0 s -> 1.4 s and 0.5 s -> 0.9 s: 40% and 80% longer, but under half a second each, as a
  // busy machine stretches an unchanged compile. Not a difference.
  Run a, busy;
  busy.frame_s = "1.4";
  busy.inductor_s = "0.9";
  for (const ReportedDifference& x : compare("phase_noise", a, busy)) {
    INFO(x.kind << ": " << x.text);
    CHECK(x.kind != "compile_time");
  }
  // 1.0 s -> 3.5 s and 0.5 s -> 3.0 s: both, the larger change first.
  Run slower;
  slower.frame_s = "3.5";
  slower.inductor_s = "3.2";
  std::vector<ReportedDifference> phases;
  for (const ReportedDifference& x : compare("phase_slower", a, slower))
    if (x.kind == "compile_time") phases.push_back(x);
  REQUIRE(phases.size() == 2);
  CHECK(phases[0].subject == "inductor");
  CHECK(phases[0].a == "0.500 s");
  CHECK(phases[0].b == "3.200 s");
  CHECK(phases[1].subject == "entire_frame");
  // The change is the one compile's: the model puts it on that compile's row (the viewer marks
  // it there).
  {
    auto dir = write_logs("phase_rows", a, slower);
    for (const char* side : {"a", "b"}) {
      auto r = e2e::run_tlscope(
          dir, "ingest --db " + e2e::q((dir / (side + std::string(".db"))).string()) + " " +
                   e2e::q((dir / (side + std::string(".log"))).string()));
      INFO(r.err);
      REQUIRE(r.exit_code == 0);
    }
    tlscope::views::Database da((dir / "a.db").string()), db((dir / "b.db").string());
    auto c = tlscope::views::compare_runs(da, db);
    REQUIRE(c.ok());
    REQUIRE(c.value.compiles.size() == 1);
    size_t timed = 0;
    for (const auto& d : c.value.differences)
      if (d.kind == tlscope::views::DifferenceKind::compile_time) {
        ++timed;
        CHECK(d.compile_rows == std::vector<int64_t>{0});
        CHECK(d.frame == -1);
      }
    CHECK(timed == 2);
  }
  // 10 s -> 10.6 s: over half a second, but 6%: not a difference either.
  Run ten, ten_busy;
  ten.frame_s = "10";
  ten_busy.frame_s = "10.6";
  for (const ReportedDifference& x : compare("phase_ratio", ten, ten_busy))
    CHECK(x.kind != "compile_time");
}
