// The sample runtime's torch214 scenario against its truth.json: the bytecode dumps it wrote per
// compile (Dynamo's *_ORIGINAL_BYTECODE / *_MODIFIED_BYTECODE, resume frames too) are the
// compiles' code, its subgraph's artifacts carry their subgraph_name, and run_info / run_config
// hold the version and configuration it logged.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "analysis/analysis_harness.hpp"

using tlscope::test::AnalyzedDb;

namespace {

namespace fs = std::filesystem;

std::string str(simdjson::dom::element e) {
  return std::string(std::string_view(e.get_string().value()));
}

}  // namespace

TEST_CASE("torch214 sample: bytecode, subgraphs, version and config as truth.json says") {
  const std::string binary = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(binary));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / "torch214-sample";
  fs::remove_all(dir);
  fs::create_directories(dir);
  REQUIRE(
      std::system((binary + " torch214 --out " + dir.string() + " > " + (dir / "run.txt").string())
                      .c_str()) == 0);
  AnalyzedDb db("torch214_sample", {dir.string()});
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(*) FROM ingest_errors") == "0");
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load((dir / "truth.json").string()).get(truth));

  std::vector<std::string> bytecode;
  for (simdjson::dom::element b : simdjson::dom::array(truth["bytecode"]))
    for (simdjson::dom::element n : simdjson::dom::array(b["names"]))
      bytecode.push_back(str(b["compile_id"]) + " " + str(n));
  CHECK(bytecode.size() == 6);  // the function and its two resume frames, before and after
  CHECK(db.rows("SELECT compile_id || ' ' || name FROM compile_directory WHERE category = 'code' "
                "AND name GLOB '*_BYTECODE' ORDER BY event_id") == bytecode);

  std::vector<std::string> subgraphs;
  for (simdjson::dom::element g : simdjson::dom::array(truth["subgraphs"]))
    for (simdjson::dom::element a : simdjson::dom::array(g["artifacts"]))
      subgraphs.push_back(str(g["compile_id"]) + " " + str(g["subgraph_name"]) + " " + str(a));
  CHECK(subgraphs.size() == 6);
  // Compared by compile (the events' ids carry the attempt: the frames restarted after a break).
  CHECK(db.rows("SELECT CASE WHEN instr(e.compile_id, '_') > 0 THEN substr(e.compile_id, 1, "
                "instr(e.compile_id, '_') - 1) ELSE e.compile_id END || ' ' || e.subgraph_name "
                "|| ' ' || a.name FROM events e "
                "JOIN artifacts a ON a.event_id = e.id WHERE e.subgraph_name IS NOT NULL ORDER "
                "BY e.id") == subgraphs);

  simdjson::dom::element env = truth.at_pointer("/environment/0");
  CHECK(db.scalar("SELECT value FROM run_info WHERE key = 'torch_version'") ==
        str(env["torch_version"]));
  CHECK(db.scalar("SELECT value FROM run_info WHERE key = 'torch_commit'") ==
        str(env["torch_commit"]));
  std::vector<std::string> config;
  for (simdjson::dom::element c : simdjson::dom::array(truth["config"]))
    config.push_back(str(c["scope"]) + "." + str(c["key"]) + "=" + str(c["value"]));
  std::sort(config.begin(), config.end());
  CHECK(config.size() == 2);
  CHECK(db.rows("SELECT scope || '.' || key || '=' || value FROM run_config WHERE scope = "
                "'dynamo' ORDER BY 1") == config);
}
