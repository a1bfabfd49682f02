// The vLLM screen's view model, read off two logs exactly: the shared vllm_post_grad_diff.log
// (written by vLLM: a pattern dump, before_post_grad_graph and two post-grad passes) and
// fixtures/vllm_piecewise.log (fixtures/vllm_piecewise_log.py, fields as vLLM's backends.py and
// piecewise_backend.py write them: config, split graph, piecewise starts over a range and two
// capture sizes, two pass chains, a second compile call). A log without vLLM records has none.
#include <catch2/catch.hpp>

#include <filesystem>

#include "common/scratch_files.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/vllm.hpp"
#include "views/real_db.hpp"

using namespace tlscope::views;

namespace {

std::string analysed(const std::string& name, const std::string& path) {
  std::filesystem::path dir = tlscope::test::fresh_scratch("views-tests", name);
  std::string db = (dir / "run.db").string();
  tlscope::model::IngestResult ingested = tlscope::model::ingest(db, {path});
  REQUIRE(ingested.problems.empty());
  auto analysis = tlscope::model::analysis::ensure_analysis(db);
  REQUIRE(analysis.ok);
  return db;
}

std::string diff_text(const std::vector<VllmDiffLine>& lines) {
  std::string s;
  for (const VllmDiffLine& l : lines) s += std::string(1, l.op) + l.text + "\n";
  return s;
}

}  // namespace

TEST_CASE("vllm: vllm_post_grad_diff.log's passes in order, each diffed against the graph before") {
  const std::string path = std::string(TLSCOPE_SHARED_LOGS) + "/vllm_post_grad_diff.log";
  const std::string db_path = analysed("vllm_post_grad_diff", path);
  CHECK(tlscope::test::query_rows(db_path, "SELECT count(*) FROM ingest_errors") ==
        std::vector<std::string>{"0"});
  Database db(db_path);
  REQUIRE(db.ok());
  Result<VllmReport> r = load_vllm(db);
  REQUIRE(r.ok());
  REQUIRE(r->present);
  REQUIRE(r->calls.size() == 1);
  const VllmCall& call = r->calls[0];
  CHECK(call.compile_id == "0/0");
  CHECK(call.config.empty());  // the log has no vllm_compilation_config
  CHECK(call.groups.empty());  // nor piecewise starts
  REQUIRE(call.passes.size() == 2);
  CHECK(call.passes[0].index == 0);
  CHECK(call.passes[0].name == "FusionPass");
  CHECK(call.passes[1].index == 1);
  CHECK(call.passes[1].name == "ReshapePass");
  CHECK(call.passes[0].chain == call.passes[1].chain);
  // FusionPass: before_post_grad_graph (line 2 of the log's records) -> the fused graph.
  CHECK(call.passes[0].base_event_id == 2);
  CHECK(call.passes[0].event_id == 3);
  CHECK(call.passes[0].lines_removed == 3);
  CHECK(call.passes[0].lines_added == 2);
  CHECK(call.passes[1].base_event_id == 3);
  CHECK(call.passes[1].lines_removed == 1);
  CHECK(call.passes[1].lines_added == 2);
  // The pattern dump beside FusionPass; ReshapePass has none.
  REQUIRE(call.patterns.size() == 1);
  CHECK(call.patterns[0].name == "vllm_patterns.FusionPass");
  CHECK(call.passes[0].patterns_event_id == 1);
  CHECK(call.passes[1].patterns_event_id == 0);

  Result<VllmPassTexts> fusion = load_pass_texts(db, call.passes[0]);
  REQUIRE(fusion.ok());
  CHECK(diff_text(pass_diff(fusion->before, fusion->after)) ==
        " def forward(self, x):\n"
        "-    a = torch.sin(x)\n"
        "-    b = torch.cos(x)\n"
        "-    return a + b\n"
        "+    fused_sincos = torch.ops.fused_sincos(x)\n"
        "+    return fused_sincos\n");
  Result<VllmPassTexts> reshape = load_pass_texts(db, call.passes[1]);
  REQUIRE(reshape.ok());
  CHECK(diff_text(pass_diff(reshape->before, reshape->after)) ==
        " def forward(self, x):\n"
        "     fused_sincos = torch.ops.fused_sincos(x)\n"
        "-    return fused_sincos\n"
        "+    y = fused_sincos.reshape(-1)\n"
        "+    return y\n");
}

TEST_CASE("vllm: the piecewise fixture's config, size groups, subgraph records and calls") {
  const std::string db_path =
      analysed("vllm_piecewise", std::string(TLSCOPE_FIXTURES) + "/vllm_piecewise.log");
  Database db(db_path);
  REQUIRE(db.ok());
  Result<VllmReport> r = load_vllm(db);
  REQUIRE(r.ok());
  REQUIRE(r->calls.size() == 2);
  const VllmCall& call = r->calls[0];
  // Every key of the config, in the order written, with its JSON type.
  std::vector<std::string> keys;
  for (const VllmConfigEntry& e : call.config) keys.push_back(e.key);
  CHECK(keys == std::vector<std::string>{
                    "model", "prefix", "mode", "backend", "custom_ops", "splitting_ops",
                    "cudagraph_mode", "compile_sizes", "compile_ranges_split_points",
                    "use_inductor_graph_partition", "inductor_passes", "enabled_passes",
                    "dynamic_shapes_type", "dynamic_shapes_evaluate_guards"});
  CHECK(r->config_value("model") == "meta-llama/Llama-3.2-1B");
  CHECK(r->config_value("cudagraph_mode") == "CUDAGraphMode.FULL_AND_PIECEWISE");
  CHECK(r->config_value("compile_sizes") == "4, 8");
  CHECK(r->config_value("use_inductor_graph_partition") == "false");
  CHECK(call.config[9].type == "false");
  CHECK(call.split_graph_event_id == 3);
  // Groups by range or size, first seen first; the sizes are cudagraph capture sizes.
  REQUIRE(call.groups.size() == 3);
  CHECK(call.groups[0].label == "range [1, 8192]");
  CHECK_FALSE(call.groups[0].cudagraph_capture_size);
  CHECK(call.groups[1].label == "size 4");
  CHECK(call.groups[1].cudagraph_capture_size);
  CHECK(call.groups[2].label == "size 8");
  for (const VllmSizeGroup& g : call.groups) {
    REQUIRE(g.piecewise.size() == 2);
    CHECK(g.piecewise[0].submod_name == "submod_0");
    CHECK(g.piecewise[0].index == 0);
    CHECK(g.piecewise[1].submod_name == "submod_2");
    CHECK(g.piecewise[1].total == 2);
  }
  // The submodule's dump belongs to its first piecewise compile, with that compile's records.
  std::vector<std::string> first;
  for (const VllmArtifact& a : call.groups[0].piecewise[0].artifacts) first.push_back(a.name);
  CHECK(first == std::vector<std::string>{"vllm_submod_0", "before_post_grad_graph",
                                          "vllm_post_grad.0.NoOpEliminationPass",
                                          "vllm_post_grad.1.RMSNormQuantFusionPass",
                                          "after_post_grad_graph", "inductor_output_code"});
  CHECK(call.groups[0].piecewise[0].artifacts.back().kind == "inductor_output_code");
  // Records before the first start: the compile event, the split graph, the pattern dump.
  std::vector<std::string> before;
  for (const VllmArtifact& a : call.before_piecewise) before.push_back(a.name);
  CHECK(before == std::vector<std::string>{"vllm_compile_event", "vllm_piecewise_split_graph",
                                           "vllm_patterns.RMSNormQuantFusionPass"});
  // Two pass chains (range and size 4 of submod_0), each NoOp then fusion.
  REQUIRE(call.passes.size() == 4);
  CHECK(call.passes[0].chain == 0);
  CHECK(call.passes[2].chain == 1);
  CHECK(call.passes[2].name == "NoOpEliminationPass");
  CHECK(call.passes[3].name == "RMSNormQuantFusionPass");
  CHECK(call.passes[0].lines_removed == 2);
  CHECK(call.passes[0].lines_added == 1);
  CHECK(call.passes[1].patterns_event_id == 4);
  CHECK(call.passes[0].piecewise_id == call.groups[0].piecewise[0].id);
  // The second call: its own config (empty lists as written) and one piecewise start.
  const VllmCall& second = r->calls[1];
  CHECK(second.index == 1);
  CHECK(second.compile_id == "1/0");
  REQUIRE(second.groups.size() == 1);
  CHECK(second.groups[0].piecewise.size() == 1);
  CHECK(second.passes.empty());
}

TEST_CASE("vllm: a log without vLLM records has no vLLM screen") {
  Database db(tlscope::test::analysed_real_log("vllm_none", {"simple.log"}));
  REQUIRE(db.ok());
  Result<VllmReport> r = load_vllm(db);
  REQUIRE(r.ok());
  CHECK_FALSE(r->present);
  CHECK(r->calls.empty());
}

TEST_CASE("vllm: pass_diff keeps context around changes and elides the rest") {
  std::string before, after;
  for (int i = 0; i < 20; ++i) before += "line " + std::to_string(i) + "\n";
  after = before;
  after.replace(after.find("line 10\n"), 8, "line ten\n");
  std::vector<VllmDiffLine> d = pass_diff(before, after, 2);
  CHECK(diff_text(d) == "@...\n line 8\n line 9\n-line 10\n+line ten\n line 11\n line 12\n@...\n");
  CHECK(d[3].old_line == 11);
  CHECK(d[3].new_line == 0);
  CHECK(d[4].new_line == 11);
}
