// `tlscope summary --format json` (docs/json.md): the counts checked field by field against the
// sample runtime's truth.json and against what the real PyTorch logs hold.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "e2e/e2e_support.hpp"

namespace {

const std::string kSummarySample =
    std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";

struct SummaryJson {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  explicit SummaryJson(const std::string& text) { doc = parser.parse(text); }
};

int64_t at(simdjson::dom::element e, const char* pointer) {
  return int64_t(e.at_pointer(pointer));
}

std::string summary_json_of(const std::string& name, const std::string& inputs) {
  auto dir = e2e::scratch("summary_json_" + name);
  auto r = e2e::run_tlscope(
      dir, "summary --format json " + inputs + " --db " + e2e::q((dir / "run.db").string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

std::string sample_truth(const std::string& scenario, e2e::fs::path& logs) {
  auto dir = e2e::scratch("summary_json_sample_" + scenario);
  logs = dir / "logs";
  std::string cmd = e2e::q(kSummarySample) + " " + scenario + " --out " + e2e::q(logs.string()) +
                    " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return e2e::slurp(logs / "truth.json");
}

}  // namespace

TEST_CASE("summary json: simple.log compiles forward once, cleanly") {
  SummaryJson j(summary_json_of("simple", e2e::q(e2e::kLogs + "/simple.log")));
  CHECK(std::string_view(j.doc["schema"]) == "tlscope.summary/1");
  CHECK(std::string_view(j.doc["torch_version"]) == "2.6.0a0+giteece9ec");
  CHECK(simdjson::dom::array(j.doc["ranks"]).size() == 0);
  CHECK(at(j.doc, "/compiles/attempted") == 1);
  CHECK(at(j.doc, "/compiles/completed") == 1);
  CHECK(at(j.doc, "/compiles/failed") == 0);
  CHECK(at(j.doc, "/compiles/unfinished") == 0);
  CHECK(at(j.doc, "/recompiles") == 0);
  CHECK(at(j.doc, "/graph_breaks/records") == 0);
  CHECK(std::string_view(j.doc.at_pointer("/frames/0/function")) == "forward");
  CHECK(at(j.doc, "/frames/0/line") == 11123);
  CHECK(simdjson::dom::array(j.doc["findings"]).size() == 0);
}

TEST_CASE("summary json: comp_failure.log's backend failure counts as failed, not completed") {
  SummaryJson j(summary_json_of("comp_failure", e2e::q(e2e::kLogs + "/comp_failure.log")));
  CHECK(at(j.doc, "/compiles/attempted") == 1);
  CHECK(at(j.doc, "/compiles/completed") == 0);
  CHECK(at(j.doc, "/compiles/failed") == 1);
  CHECK(std::string_view(j.doc.at_pointer("/frames/0/function")) == "fn");
  CHECK(at(j.doc, "/frames/0/failed") == 1);
  CHECK(std::string_view(j.doc.at_pointer("/findings/0/kind")) == "compile_failure");
  CHECK(std::string_view(j.doc.at_pointer("/findings/0/fields/fail_type")) ==
        "BackendCompilerFailed");
  CHECK(int64_t(j.doc.at_pointer("/findings/0/ranks").get_array().size()) == 0);
}

TEST_CASE("summary json: the multi-rank directory's ranks and rank 1's 14 recompiles") {
  SummaryJson j(summary_json_of("multi_rank", e2e::q(e2e::kLogs + "/multi_rank_logs")));
  simdjson::dom::array ranks = j.doc["ranks"];
  CHECK(ranks.size() == 4);
  // Ranks 1 and 3 recompile `kernel` 14 and 6 times (size guards); ranks 0 and 2 fail fn once.
  CHECK(at(j.doc, "/recompiles") == 20);
  CHECK(at(j.doc, "/compiles/failed") == 2);
}

TEST_CASE("summary json: the recompiles sample counts what truth.json says happened") {
  e2e::fs::path logs;
  SummaryJson truth(sample_truth("recompiles", logs));
  SummaryJson j(summary_json_of("recompiles", e2e::q(logs.string())));
  // A compile stopped by the recompile limit failed: it is no completed recompile.
  std::set<std::string> limited;
  for (auto hit : truth.doc["cache_limit"].get_array())
    limited.insert(std::string(std::string_view(hit["compile_id"])));
  int64_t recompiles = 0;
  for (auto r : truth.doc["recompiles"].get_array())
    recompiles += !limited.count(std::string(std::string_view(r["compile_id"])));
  CHECK(at(j.doc, "/recompiles") == recompiles);
  CHECK(at(j.doc, "/compiles/failed") == int64_t(limited.size()));
  CHECK(at(j.doc, "/compiles/attempted") == at(j.doc, "/compiles/completed") +
                                                at(j.doc, "/compiles/failed") +
                                                at(j.doc, "/compiles/unfinished"));
}

TEST_CASE("summary json: the graph-breaks sample's breaks, records and distinct") {
  e2e::fs::path logs;
  SummaryJson truth(sample_truth("graph-breaks", logs));
  SummaryJson j(summary_json_of("graph_breaks", e2e::q(logs.string())));
  std::set<std::string> distinct;
  for (auto b : truth.doc["graph_breaks"].get_array())
    distinct.insert(std::string(std::string_view(b["file"])) + ":" +
                    std::to_string(int64_t(b["line"])) + " " +
                    std::string(std::string_view(b["reason"])));
  CHECK(at(j.doc, "/graph_breaks/records") ==
        int64_t(truth.doc["graph_breaks"].get_array().size()));
  CHECK(at(j.doc, "/graph_breaks/distinct") == int64_t(distinct.size()));
}
