// Collectives parity (schedule against generated code) and graph runtime across ranks: on the
// real multi_rank_schedule logs (facts read off them with grep, quoted beside each check), on
// hand-made records for the shapes the real logs lack (an unwaited collective, hostile
// payloads), and the code scanner on real Inductor lines.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "analysis/analysis_harness.hpp"
#include "analysis/findings_messages.hpp"
#include "analysis/fixture_db.hpp"
#include "tlscope/model/analysis/generated_collectives.hpp"

using tlscope::model::analysis::analyze;
using tlscope::model::analysis::scan_generated_collectives;
using tlscope::test::AnalyzedDb;
using tlscope::test::FixtureDb;

namespace {

std::string shared(const std::string& name) {
  return std::string(TLSCOPE_SHARED_LOGS) + "/" + name;
}

// call() of multi_rank_schedule rank 0's output code for compile 0/0 (lines 899-916 of
// dedicated_log_torch_trace_rank_0_6u3fubwl.log, a few shortened), comments and asserts kept.
const char* kRealCall =
    "    cpp_fused_all_reduce_0(arg0_1, buf0)\n"
    "    # Topologically Sorted Source Nodes: [ar_out], Original ATen: "
    "[_c10d_functional.all_reduce]\n"
    "    torch.ops._c10d_functional.all_reduce_.default(buf0, 'sum', '0')\n"
    "    # Topologically Sorted Source Nodes: [ar_out_waited], Original ATen: "
    "[_c10d_functional.wait_tensor]\n"
    "    torch.ops._c10d_functional.wait_tensor.default(buf0)\n"
    "    buf5 = torch.ops._c10d_functional.all_gather_into_tensor.default(buf0, 2, '0')\n"
    "    assert_size_stride(buf5, (8, 4), (4, 1), "
    "'torch.ops._c10d_functional.all_gather_into_tensor.default')\n"
    "    buf6 = torch.ops._c10d_functional.reduce_scatter_tensor.default(arg1_1, 'sum', 2, '0')\n"
    "    assert_alignment(buf6, 16, 'torch.ops._c10d_functional.reduce_scatter_tensor.default')\n"
    "    torch.ops._c10d_functional.wait_tensor.default(buf5)\n"
    "    torch.ops._c10d_functional.wait_tensor.default(buf6)\n";

std::string schedule(std::initializer_list<const char*> ops) {
  std::string s = "[\n";
  bool first = true;
  for (const char* op : ops) {
    s += std::string(first ? "" : ",\n") + "\"torch.ops._c10d_functional." + op + ".default\"";
    first = false;
  }
  return s + "\n]";
}

}  // namespace

TEST_CASE("generated collectives: the calls of a real wrapper, not its comments or asserts") {
  auto calls = scan_generated_collectives(kRealCall);
  std::vector<std::string> seen;
  for (const auto& c : calls)
    seen.push_back(c.op + ":" + c.tensor + ":" + std::to_string(c.line) + ":" +
                   (c.waited ? "w" : "-"));
  CHECK(seen == std::vector<std::string>{"all_reduce_:buf0:3:w", "wait_tensor:buf0:5:-",
                                         "all_gather_into_tensor:buf5:6:w",
                                         "reduce_scatter_tensor:buf6:8:w", "wait_tensor:buf5:10:-",
                                         "wait_tensor:buf6:11:-"});
  // Without its last wait the reduce_scatter is issued and never waited on; a wait before the
  // issue does not count, nor does a `#` line or a string.
  auto cut = scan_generated_collectives(
      "    torch.ops._c10d_functional.wait_tensor.default(buf6)\n"
      "    buf6 = torch.ops._c10d_functional.reduce_scatter_tensor.default(x, 'sum', 2, '0')\n"
      "    # torch.ops._c10d_functional.wait_tensor.default(buf6)\n"
      "    s = \"torch.ops._c10d_functional.wait_tensor.default(buf6)\"\n");
  REQUIRE(cut.size() == 2);
  CHECK(cut[1].op == "reduce_scatter_tensor");
  CHECK_FALSE(cut[1].waited);
  // out= names the buffer; a list element waits on its list.
  auto out = scan_generated_collectives(
      "    torch.ops._c10d_functional.all_gather_into_tensor_out.default(buf1, 2, '0', out=buf2)\n"
      "    torch.ops._c10d_functional.wait_tensor.default(buf2[0])\n");
  REQUIRE(out.size() == 2);
  CHECK(out[0].tensor == "buf2");
  CHECK(out[0].waited);
  // Hostile text: unterminated calls and quotes, a bare namespace, never a crash.
  for (const char* text : {"torch.ops._c10d_functional.", "torch.ops._c10d_functional.x(",
                           "torch.ops._c10d_functional.all_reduce_.default('", "(((", ""})
    CHECK_NOTHROW(scan_generated_collectives(text));
  CHECK(scan_generated_collectives("torch.ops._c10d_functional.x(").size() == 1);
}

TEST_CASE("multi_rank_schedule: rank 1's schedule of 0/0 lacks what its code calls") {
  AnalyzedDb db("parity_multi_rank_schedule", {shared("multi_rank_schedule")});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  REQUIRE(db.ingest_problems() == "");
  // Every rank's output code of 0/0 calls all_reduce_, all_gather_into_tensor,
  // reduce_scatter_tensor once and wait_tensor three times (rank 0: lines 901-916), each
  // waited; 1/0 calls all_reduce_ and wait_tensor once (lines 2085-2087). Ranks 0 and 2 schedule
  // the same; rank 1's schedule of 0/0 (..._rank_1_n8zycf07.log line 1081) has no
  // reduce_scatter_tensor and two wait_tensor.
  CHECK(db.rows("SELECT rank, compile_id, op, scheduled, generated, COALESCE(unwaited, '-') FROM "
                "collective_parity WHERE rank = 1 ORDER BY id") ==
        std::vector<std::string>{"1|0/0|all_reduce_|1|1|0", "1|0/0|wait_tensor|2|3|-",
                                 "1|0/0|all_gather_into_tensor|1|1|0",
                                 "1|0/0|reduce_scatter_tensor|0|1|0", "1|1/0|all_reduce_|1|1|0",
                                 "1|1/0|wait_tensor|1|1|-"});
  CHECK(db.scalar("SELECT count(*) FROM collective_parity WHERE scheduled IS NOT generated OR "
                  "unwaited > 0") == "2");
  CHECK(db.rows("SELECT rank, count(*) FROM collective_parity GROUP BY rank") ==
        std::vector<std::string>{"0|6", "1|6", "2|6"});
  // One finding, on rank 1, compile 0/0.
  CHECK(db.rows("SELECT ranks, compile_id FROM findings WHERE kind = 'collective_parity'") ==
        std::vector<std::string>{"[1]|0/0"});
  std::string text = tlscope::test::findings_messages(db.db());
  INFO(text);
  CHECK(text.find("reduce_scatter_tensor scheduled 0 time(s), called 1") != std::string::npos);
  // No inductor_runtime_and_tensor_meta in these logs (grep finds none): no runtimes.
  CHECK(db.scalar("SELECT count(*) FROM graph_runtimes") == "0");
}

TEST_CASE("collectives parity: an issued collective without its wait, hostile schedules") {
  FixtureDb db;
  db.add_file("dedicated_log_torch_trace_rank_0.log", 0);
  auto c = tlscope::test::ctx(0, 0);
  db.dynamo_start(c, {{"t.py", 1, "main"}});
  db.event("inductor_output_code", c, "{\"filename\": \"x.py\"}",
           std::string("def call(args):\n"
                       "    buf1 = torch.ops._c10d_functional.all_gather_into_tensor.default(a, "
                       "2, '0')\n    return (buf1, )\n"));
  db.artifact(c, "inductor_collective_schedule", schedule({"all_gather_into_tensor"}), "json", 0);
  auto c1 = tlscope::test::ctx(1, 0);
  db.dynamo_start(c1, {{"t.py", 2, "g"}});
  db.artifact(c1, "inductor_collective_schedule", "[not json", "json", 0);
  db.artifact(c1, "inductor_collective_schedule", "{\"a\": 1}", "json", 0);
  db.artifact(c1, "inductor_collective_schedule", "[1, null, \"<script>\"]", "json", 0);
  REQUIRE(analyze(db.db()).ok);
  CHECK(db.rows("SELECT compile_id, graph, op, scheduled, COALESCE(generated, '-'), "
                "COALESCE(unwaited, '-') FROM collective_parity ORDER BY id") ==
        std::vector<std::string>{"0/0|0|all_gather_into_tensor|1|1|1", "1/0|0|<script>|1|-|-"});
  std::string text = tlscope::test::findings_messages(db.db());
  INFO(text);
  // The code issues one all_gather and never waits; the schedule issues one and waits none.
  // 0/0 (the unwaited gather) and 1/0, whose one scheduled collective is never waited for.
  CHECK(db.rows("SELECT compile_id FROM findings WHERE kind = 'collective_parity' ORDER BY id") ==
        std::vector<std::string>{"0/0", "1/0"});
  CHECK(text.find("1 all_gather_into_tensor in the generated code never waited on") !=
        std::string::npos);
  CHECK(text.find("the schedule issues 1 collective(s) but waits 0 time(s)") != std::string::npos);
}

TEST_CASE("graph runtime across ranks: fastest, slowest and graphs some ranks lack") {
  FixtureDb db;
  // Shaped as PyTorch's log_runtime_and_tensor_meta writes it: {"ops": [{"name", "type",
  // "estimated_runtime_ns", "outputs"}]}.
  auto meta = [](double a, double b) {
    return "{\"ops\": [{\"name\": \"cpp_fused_0\", \"type\": \"compute\", "
           "\"estimated_runtime_ns\": " +
           std::to_string(a) +
           ", \"outputs\": []}, {\"name\": \"all_reduce_\", \"type\": \"collective\", "
           "\"estimated_runtime_ns\": " +
           std::to_string(b) + ", \"outputs\": []}, \"hostile\", 7]}";
  };
  const double compute[] = {1000, 4000, 2500};
  for (int64_t rank = 0; rank < 3; ++rank) {
    db.add_file("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank);
    db.dynamo_start(tlscope::test::ctx(0, 0), {{"t.py", 1, "main"}});
    db.artifact(tlscope::test::ctx(0, 0), "inductor_runtime_and_tensor_meta",
                meta(compute[rank], 500), "json", 0);
    if (rank != 1) {  // rank 1 never compiles 1/0
      db.dynamo_start(tlscope::test::ctx(1, 0), {{"t.py", 1, "main"}});
      db.artifact(tlscope::test::ctx(1, 0), "inductor_runtime_and_tensor_meta", meta(10, 0), "json",
                  0);
    }
  }
  db.artifact(tlscope::test::ctx(2, 0), "inductor_runtime_and_tensor_meta", "{\"ops\": 3}", "json",
              0);
  auto report = analyze(db.db());
  INFO(report.error);
  REQUIRE(report.ok);
  CHECK(db.rows("SELECT rank, compile_id, estimated_ns, collective_ns, ops FROM graph_runtimes "
                "WHERE compile_id = '0/0' ORDER BY rank") ==
        std::vector<std::string>{"0|0/0|1500.0|500.0|2", "1|0/0|4500.0|500.0|2",
                                 "2|0/0|3000.0|500.0|2"});
  CHECK(db.rows("SELECT compile_id, ranks, missing_ranks, fastest_rank, slowest_rank, "
                "difference_ns FROM graph_runtime_spread ORDER BY id") ==
        std::vector<std::string>{"0/0|[0,1,2]|[]|0|1|3000.0", "1/0|[0,2]|[1]|0|0|0.0"});
}

TEST_CASE("sample ddp-compiled: parity and runtimes against truth.json") {
  namespace fs = std::filesystem;
  const std::string sample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(sample));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / "parity-ddp-compiled";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string cmd =
      sample + " ddp-compiled --out " + dir.string() + " > " + (dir / "run.txt").string() + " 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  AnalyzedDb db("parity-ddp-compiled", {dir.string()});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load((dir / "truth.json").string()).get(truth));
  // truth.json's compiled_graphs: per rank and compile, the collectives the graph issues (each
  // waited once) and the runtime the runtime estimated.
  std::multiset<std::string> want_ops, want_ns;
  std::map<std::string, std::pair<double, double>> spread;  // compile -> (min, max)
  simdjson::dom::array graphs;
  REQUIRE_FALSE(truth["compiled_graphs"].get(graphs));
  REQUIRE(graphs.size() > 0);
  for (simdjson::dom::element g : graphs) {
    std::string rank = std::to_string(int64_t(g["rank"].get_int64().value()));
    std::string cid(std::string_view(g["compile_id"].get_string().value()));
    simdjson::dom::object ops;
    REQUIRE_FALSE(g["collectives"].get(ops));
    for (auto [op, n] : ops)
      want_ops.insert(rank + "|" + cid + "|" + std::string(op) + "|" +
                      std::to_string(int64_t(n.get_int64().value())));
    double ns = double(g["estimated_runtime_ns"].get_double().value());
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", ns);
    want_ns.insert(rank + "|" + cid + "|" + buf);
    auto [it, fresh] = spread.emplace(cid, std::make_pair(ns, ns));
    it->second.first = std::min(it->second.first, ns);
    it->second.second = std::max(it->second.second, ns);
  }
  auto rows = [&](const std::string& sql) {
    auto v = db.rows(sql);
    return std::multiset<std::string>(v.begin(), v.end());
  };
  // Scheduled and generated both equal what the graph issued; nothing is unwaited.
  CHECK(rows("SELECT rank || '|' || compile_id || '|' || op || '|' || scheduled FROM "
             "collective_parity") == want_ops);
  CHECK(rows("SELECT rank || '|' || compile_id || '|' || op || '|' || generated FROM "
             "collective_parity") == want_ops);
  CHECK(db.scalar("SELECT count(*) FROM collective_parity WHERE unwaited > 0") == "0");
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind = 'collective_parity'") == "0");
  CHECK(rows("SELECT rank || '|' || compile_id || '|' || printf('%.0f', estimated_ns) FROM "
             "graph_runtimes") == want_ns);
  for (const auto& [cid, range] : spread) {
    INFO(cid);
    CHECK(db.scalar("SELECT printf('%.0f', difference_ns) FROM graph_runtime_spread WHERE "
                    "compile_id = '" +
                    cid + "'") ==
          std::to_string(static_cast<int64_t>(range.second - range.first + 0.5)));
  }
}
