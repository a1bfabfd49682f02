// `tlscope summary --format json`'s fields for today's logs (docs/json.md): torch_commit, config,
// compile_phases, unknown_record_kinds, subgraphs and vllm, checked against what the real logs
// hold (counts read off subgraph_name.log and vllm_post_grad_diff.log), the torch214.log fixture
// and the sample runtime's vllm-piecewise truth.json.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "e2e/e2e_support.hpp"

namespace {

const std::string kSample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";

struct Json {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  explicit Json(const std::string& text) { doc = parser.parse(text); }
};

std::string summary_of(const std::string& name, const std::string& inputs) {
  auto dir = e2e::scratch("summary_records_" + name);
  auto r = e2e::run_tlscope(
      dir, "summary --format json " + inputs + " --db " + e2e::q((dir / "run.db").string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

std::string str(simdjson::dom::element e) {
  return std::string(std::string_view(e));
}

std::vector<std::string> strings(simdjson::dom::element e) {
  std::vector<std::string> out;
  for (simdjson::dom::element s : simdjson::dom::array(e)) out.push_back(str(s));
  return out;
}

}  // namespace

TEST_CASE("summary json: subgraph_name.log's two subgraphs with their artifacts") {
  Json j(summary_of("subgraph_name", e2e::q(e2e::kLogs + "/subgraph_name.log")));
  CHECK(j.doc["torch_version"].is_null());
  CHECK(j.doc["torch_commit"].is_null());
  CHECK(simdjson::dom::object(j.doc["config"]).size() == 0);
  CHECK(simdjson::dom::object(j.doc["unknown_record_kinds"]).size() == 0);
  CHECK(j.doc["vllm"].is_null());
  simdjson::dom::array subgraphs = j.doc["subgraphs"];
  REQUIRE(subgraphs.size() == 2);
  CHECK(str(j.doc.at_pointer("/subgraphs/0/compile_id")) == "0/0");
  CHECK(str(j.doc.at_pointer("/subgraphs/0/subgraph_name")) == "repeated_subgraph0");
  CHECK(strings(j.doc.at_pointer("/subgraphs/0/artifacts")) ==
        std::vector<std::string>{"fx_graph_runnable"});
  CHECK(str(j.doc.at_pointer("/subgraphs/1/compile_id")) == "0/0");
  CHECK(str(j.doc.at_pointer("/subgraphs/1/subgraph_name")) == "partitioned_bw_subgraph_1_0");
  CHECK(strings(j.doc.at_pointer("/subgraphs/1/artifacts")) ==
        std::vector<std::string>{"fx_graph_runnable"});
}

TEST_CASE("summary json: vllm_post_grad_diff.log's passes in order") {
  Json j(summary_of("vllm_post_grad", e2e::q(e2e::kLogs + "/vllm_post_grad_diff.log")));
  REQUIRE(j.doc["vllm"].is_object());
  CHECK(strings(j.doc.at_pointer("/vllm/post_grad_passes")) ==
        std::vector<std::string>{"FusionPass", "ReshapePass"});
  CHECK(simdjson::dom::array(j.doc.at_pointer("/vllm/piecewise")).size() == 0);
  CHECK(simdjson::dom::object(j.doc.at_pointer("/vllm/config")).size() == 0);
  CHECK(simdjson::dom::array(j.doc["subgraphs"]).size() == 0);
}

TEST_CASE("summary json: torch214.log's version, commit, config and unknown kinds") {
  Json j(summary_of("torch214", e2e::q(std::string(TLSCOPE_FIXTURES) + "/torch214.log")));
  CHECK(str(j.doc["torch_version"]) == "2.14.0");
  CHECK(str(j.doc["torch_commit"]) == "4f2a9c1d7e3b5a6c8d9e0f1a2b3c4d5e6f7a8b9c");
  CHECK(str(j.doc.at_pointer("/config/dynamo.cache_size_limit")) == "8");
  CHECK(str(j.doc.at_pointer("/config/inductor.triton.cudagraphs")) == "True");
  simdjson::dom::object unknown = j.doc["unknown_record_kinds"];
  CHECK(unknown.size() == 2);
  CHECK(int64_t(j.doc.at_pointer("/unknown_record_kinds/invented_kind_alpha")) == 2);
  CHECK(int64_t(j.doc.at_pointer("/unknown_record_kinds/invented_kind_beta")) == 1);
  CHECK(simdjson::dom::array(j.doc["subgraphs"]).size() == 2);  // repeated_subgraph0, bw
}

TEST_CASE("summary json: simple.log's compile phases nest (children within their parent)") {
  Json j(summary_of("simple_phases", e2e::q(e2e::kLogs + "/simple.log")));
  simdjson::dom::array phases = j.doc["compile_phases"];
  REQUIRE(phases.size() == 21);  // the run's tree, as compile_time.html draws it
  std::map<std::string, double> seconds;
  std::map<std::string, double> children;
  for (simdjson::dom::element p : phases) {
    seconds[str(p["name"])] = double(p["seconds"]);
    CHECK(int64_t(p["count"]) >= 1);
    if (!p["parent"].is_null()) children[str(p["parent"])] += double(p["seconds"]);
  }
  CHECK(str(j.doc.at_pointer("/compile_phases/0/name")) == "dynamo");
  CHECK(j.doc.at_pointer("/compile_phases/0/parent").is_null());
  CHECK(seconds["dynamo"] == Approx(1.66).margin(0.005));
  for (const auto& [parent, sum] : children) CHECK(sum <= seconds[parent] + 1e-6);
}

TEST_CASE("summary json: the vllm-piecewise sample's piecewise compiles and passes, as truth") {
  auto dir = e2e::scratch("summary_records_vllm_sample_logs");
  e2e::fs::path logs = dir / "logs";
  REQUIRE(std::system((e2e::q(kSample) + " vllm-piecewise --out " + e2e::q(logs.string()) +
                       " >/dev/null 2>&1")
                          .c_str()) == 0);
  simdjson::dom::parser tp;
  simdjson::dom::element truth = tp.parse(e2e::slurp(logs / "truth.json"));
  Json j(summary_of("vllm_sample", e2e::q(logs.string())));
  REQUIRE(j.doc["vllm"].is_object());

  std::vector<std::string> want, got;
  for (simdjson::dom::element p : simdjson::dom::array(truth["vllm_piecewise"]))
    want.push_back(std::to_string(int64_t(p["piecewise_index"])) + "|" + str(p["submod_name"]) +
                   "|" + std::to_string(int64_t(p["compile_range_start"])) + "|" +
                   std::to_string(int64_t(p["compile_range_end"])) + "|" +
                   (bool(p["is_single_size"]) ? "1" : "0") +
                   (bool(p["is_cudagraph_capture_size"]) ? "1" : "0"));
  for (simdjson::dom::element p : simdjson::dom::array(j.doc.at_pointer("/vllm/piecewise")))
    got.push_back(std::to_string(int64_t(p["index"])) + "|" + str(p["submod_name"]) + "|" +
                  std::to_string(int64_t(p["range_start"])) + "|" +
                  std::to_string(int64_t(p["range_end"])) + "|" +
                  (bool(p["is_single_size"]) ? "1" : "0") +
                  (bool(p["is_cudagraph_capture_size"]) ? "1" : "0"));
  CHECK(want.size() == 6);
  CHECK(got == want);

  std::vector<std::string> passes;
  for (simdjson::dom::element p : simdjson::dom::array(truth["vllm_passes"]))
    passes.push_back(str(p["pass"]));
  CHECK(passes.size() == 12);
  CHECK(strings(j.doc.at_pointer("/vllm/post_grad_passes")) == passes);

  // The config: the first call's keys, each as logged.
  simdjson::dom::object first = truth.at_pointer("/vllm_config/0");
  simdjson::dom::object config = j.doc.at_pointer("/vllm/config");
  CHECK(config.size() == first.size());
  for (simdjson::dom::key_value_pair kv : first)
    if (kv.value.is_string()) CHECK(str(config[kv.key]) == str(kv.value));
}
