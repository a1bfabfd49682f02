// PyTorch 2.14's records, from fixtures/torch214.log (written by fixtures/torch214_log.py) and the
// real subgraph_name.log: the run's version and configuration (run_info, run_config), the
// envelope's subgraph_name, recompile reasons as plain text and as a list, a compile without
// metrics, and records of kinds nobody knows, kept.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analysis/analysis_harness.hpp"
#include "tlscope/model/analysis/run_environment.hpp"
#include "tlscope/model/metrics_fields.hpp"
#include "tlscope/model/record_kinds.hpp"

using tlscope::test::AnalyzedDb;
namespace analysis = tlscope::model::analysis;

namespace {

const std::string kFixture = std::string(TLSCOPE_FIXTURES) + "/torch214.log";
const std::string kSubgraphLog = std::string(TLSCOPE_SHARED_LOGS) + "/subgraph_name.log";

}  // namespace

TEST_CASE("torch214.log: the torch_version record becomes run_info") {
  AnalyzedDb db("torch214_run_info", {kFixture});
  REQUIRE(db.ingest_problems().empty());
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(*) FROM ingest_errors") == "0");
  CHECK(db.rows("SELECT key || '=' || value || ' from ' || source FROM run_info ORDER BY key") ==
        std::vector<std::string>{
            "torch_commit=4f2a9c1d7e3b5a6c8d9e0f1a2b3c4d5e6f7a8b9c from torch_version",
            "torch_cuda_version=12.8 from torch_version",
            "torch_version=2.14.0 from torch_version"});
}

TEST_CASE("torch214.log: the config strings and fields of compilation_metrics become run_config") {
  AnalyzedDb db("torch214_run_config", {kFixture});
  REQUIRE(db.report().ok);
  // The first metrics record of the file that carries each config; one row per key.
  CHECK(
      db.rows("SELECT scope || '.' || key || '=' || value FROM run_config WHERE scope = "
              "'dynamo' ORDER BY key") ==
      std::vector<std::string>{"dynamo.assume_static_by_default=True",
                               "dynamo.automatic_dynamic_shapes=True", "dynamo.cache_size_limit=8",
                               "dynamo.inline_inbuilt_nn_modules=True", "dynamo.recompile_limit=8",
                               "dynamo.specialize_int=False", "dynamo.suppress_errors=False"});
  CHECK(db.rows("SELECT key || '=' || value FROM run_config WHERE scope = 'inductor' ORDER BY "
                "key") == std::vector<std::string>{"freezing=False", "fx_graph_cache=True",
                                                   "max_autotune=False", "triton.cudagraphs=True"});
  CHECK(db.rows("SELECT key || '=' || value FROM run_config WHERE scope = 'compile' ORDER BY "
                "key") == std::vector<std::string>{"config_inline_inbuilt_nn_modules=True",
                                                   "config_suppress_errors=False",
                                                   "specialize_float=False"});
}

TEST_CASE("subgraph_name: the envelope field is an events column") {
  AnalyzedDb fixture("torch214_subgraphs", {kFixture});
  REQUIRE(fixture.report().ok);
  CHECK(fixture.rows("SELECT a.name || ' ' || e.compile_id || ' ' || e.subgraph_name FROM "
                     "events e JOIN artifacts a ON a.event_id = e.id WHERE e.subgraph_name IS "
                     "NOT NULL ORDER BY e.id") ==
        std::vector<std::string>{"fx_graph_runnable 0/0 repeated_subgraph0",
                                 "before_post_grad_graph 0/0 repeated_subgraph0",
                                 "fx_graph_runnable 0/0 partitioned_bw_subgraph_1_0"});

  // The real log (tlparse's test input): 0 errors, its three records in compile 0/0, the two
  // fx_graph_runnable artifacts under their subgraphs and the output graph under none.
  AnalyzedDb real("torch214_subgraph_log", {kSubgraphLog});
  REQUIRE(real.ingest_problems().empty());
  REQUIRE(real.report().ok);
  CHECK(real.scalar("SELECT count(*) FROM ingest_errors") == "0");
  CHECK(real.rows("SELECT d.compile_id || ' ' || d.name || ' ' || coalesce(e.subgraph_name, '-') "
                  "FROM compile_directory d JOIN events e ON e.id = d.event_id ORDER BY "
                  "d.event_id") ==
        std::vector<std::string>{"0/0 dynamo_output_graph -",
                                 "0/0 fx_graph_runnable repeated_subgraph0",
                                 "0/0 fx_graph_runnable partitioned_bw_subgraph_1_0"});
  // No torch_version record and no "# torch version:" line: run_info is empty.
  CHECK(real.scalar("SELECT count(*) FROM run_info") == "0");
}

TEST_CASE("recompile_reasons: plain text for a frame's first recompile, a JSON list later") {
  AnalyzedDb db("torch214_recompiles", {kFixture});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT compile_id || ' after ' || prev_compile_id || ': ' || guard_input || ' ' "
                "|| guard_property || ' ' || expected || '->' || actual || ' (' || "
                "json_array_length(all_reasons) || ')' FROM recompiles ORDER BY compile_id") ==
        std::vector<std::string>{"0/1 after 0/0: x size 8->16 (1)",
                                 "0/2 after 0/1: x size 16->32 (2)"});
}

TEST_CASE("Dynamo's original and modified bytecode are filed as code") {
  AnalyzedDb db("torch214_bytecode", {kFixture});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT name || ' ' || category FROM compile_directory WHERE name GLOB "
                "'*BYTECODE' ORDER BY event_id") ==
        std::vector<std::string>{"step_ORIGINAL_BYTECODE code", "step_MODIFIED_BYTECODE code"});
}

TEST_CASE("a compile that logged no compilation_metrics is no_metrics") {
  AnalyzedDb db("torch214_no_metrics", {kFixture});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT compile_id || ' ' || status FROM compiles ORDER BY first_event_id") ==
        std::vector<std::string>{"0/0 ok", "0/1 ok", "0/2 ok", "1/0 no_metrics"});
}

TEST_CASE("records of kinds tlscope does not know are kept with their payloads") {
  AnalyzedDb db("torch214_unknown_kinds", {kFixture});
  REQUIRE(db.report().ok);
  std::vector<std::string> unknown;
  for (const std::string& row :
       db.rows("SELECT kind || ' ' || count(*) FROM events GROUP BY kind ORDER BY kind")) {
    std::string kind = row.substr(0, row.find(' '));
    if (!tlscope::model::is_known_record_kind(kind)) unknown.push_back(row);
  }
  CHECK(unknown == std::vector<std::string>{"invented_kind_alpha 2", "invented_kind_beta 1"});
  CHECK(db.rows("SELECT p.text FROM events e JOIN payloads p ON p.id = e.payload_id WHERE "
                "e.kind = 'invented_kind_alpha' ORDER BY e.id") ==
        std::vector<std::string>{"alpha payload <one>", "alpha payload two"});
  // Every kind PyTorch wrote in the fixture is known.
  CHECK(tlscope::model::is_known_record_kind("torch_version"));
  CHECK(tlscope::model::is_known_metrics_field("guard_latency_us"));
  CHECK_FALSE(tlscope::model::is_known_metrics_field("a_field_from_the_future"));
}

TEST_CASE("read_torch_version_text: the spellings of the version facts") {
  auto facts = [](std::string_view text) {
    analysis::TorchVersionFacts f = analysis::read_torch_version_text(text);
    return f.version + "|" + f.commit + "|" + f.cuda;
  };
  CHECK(facts("2.14.0") == "2.14.0||");
  CHECK(facts("# torch version: 2.6.0a0+giteece9ec\n# torch cuda version: None\n# torch git "
              "version: eece9ecd62cae84bc2f915fc48cffe43e30256aa\nimport torch") ==
        "2.6.0a0+giteece9ec|eece9ecd62cae84bc2f915fc48cffe43e30256aa|");
  CHECK(facts("version: 2.14.0\ngit_version: abc123\ncuda: 12.8") == "2.14.0|abc123|12.8");
  CHECK(facts("torch_version = 2.15.0.dev20260101+cu128") == "2.15.0.dev20260101+cu128||");
  CHECK(facts("2.9.0a0+git86df3ff") == "2.9.0a0+git86df3ff|86df3ff|");
  // Prose or code is not a version.
  CHECK(facts("import torch\nx = torch.ones(3)") == "||");
  CHECK(facts("") == "||");
}
