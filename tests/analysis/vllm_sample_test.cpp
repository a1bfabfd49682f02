// The sample runtime's vllm-piecewise scenario against its truth.json: the vLLM tables hold the
// config it logged key by key, every piecewise compile (submodule, range, capture size) and every
// post-grad pass in order with the lines it really removed and added, each pass under the
// piecewise compile it ran in.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "analysis/analysis_harness.hpp"

using tlscope::test::AnalyzedDb;

namespace {

namespace fs = std::filesystem;

std::string text(simdjson::dom::element e) {
  if (e.is_string()) return std::string(std::string_view(e.get_string().value()));
  if (e.is_bool()) return e.get_bool().value() ? "true" : "false";
  if (e.is_int64()) return std::to_string(int64_t(e.get_int64().value()));
  return simdjson::minify(e);
}

// Booleans as the tables store them (0/1).
std::string flag(simdjson::dom::element e) {
  return e.get_bool().value() ? "1" : "0";
}

}  // namespace

TEST_CASE("vllm sample: the vLLM tables hold what truth.json says the backend logged") {
  const std::string binary = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(binary));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / "vllm-sample";
  fs::remove_all(dir);
  fs::create_directories(dir);
  REQUIRE(std::system((binary + " vllm-piecewise --out " + dir.string() + " > " +
                       (dir / "run.txt").string())
                          .c_str()) == 0);
  AnalyzedDb db("vllm_sample", {dir.string()});
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(*) FROM ingest_errors") == "0");
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load((dir / "truth.json").string()).get(truth));

  std::vector<std::string> config;
  simdjson::dom::array configs;
  REQUIRE_FALSE(truth["vllm_config"].get(configs));
  for (simdjson::dom::element c : configs) {
    simdjson::dom::object o;
    REQUIRE_FALSE(c.get(o));
    for (simdjson::dom::key_value_pair kv : o)
      config.push_back(std::string(kv.key) + "|" + text(kv.value));
  }
  CHECK(config.size() == 14);
  CHECK(db.rows("SELECT key || '|' || value FROM vllm_config ORDER BY id") == config);

  std::vector<std::string> piecewise;
  simdjson::dom::array starts, runs;
  REQUIRE_FALSE(truth["vllm_piecewise"].get(starts));
  REQUIRE_FALSE(truth["vllm_passes"].get(runs));
  for (simdjson::dom::element p : starts)
    piecewise.push_back(text(p["compile_id"]) + "|" + text(p["piecewise_index"]) + "|" +
                        text(p["submod_name"]) + "|" + text(p["total_piecewise_compiles"]) + "|" +
                        text(p["compile_range_start"]) + "|" + text(p["compile_range_end"]) + "|" +
                        flag(p["is_single_size"]) + "|" + flag(p["is_cudagraph_capture_size"]));
  CHECK(piecewise.size() == 6);
  CHECK(db.rows("SELECT compile_id || '|' || piecewise_index || '|' || submod_name || '|' || "
                "total_piecewise_compiles || '|' || range_start || '|' || range_end || '|' || "
                "is_single_size || '|' || is_cudagraph_capture_size FROM vllm_piecewise ORDER "
                "BY id") == piecewise);

  std::vector<std::string> passes;
  for (simdjson::dom::element p : runs)
    passes.push_back(text(p["compile_id"]) + "|" + text(p["submod_name"]) + "|" +
                     text(p["range_start"]) + "|" + text(p["range_end"]) + "|" + text(p["chain"]) +
                     "|" + text(p["pass_index"]) + "|" + text(p["pass"]) + "|+" +
                     text(p["lines_added"]) + "|-" + text(p["lines_removed"]));
  CHECK(passes.size() == 12);
  CHECK(db.rows("SELECT p.compile_id || '|' || w.submod_name || '|' || w.range_start || '|' || "
                "w.range_end || '|' || p.chain || '|' || p.pass_index || '|' || p.pass_name || "
                "'|+' || p.lines_added || '|-' || p.lines_removed FROM vllm_post_grad_passes p "
                "JOIN vllm_piecewise w ON w.id = p.piecewise_id ORDER BY p.id") == passes);
  // Each pass's pattern dump is found, and each submodule's dump belongs to its first compile.
  CHECK(db.scalar("SELECT count(*) FROM vllm_post_grad_passes WHERE patterns_event_id IS NULL") ==
        "0");
  CHECK(db.rows("SELECT a.name || '|' || w.range_start FROM vllm_artifacts a JOIN vllm_piecewise "
                "w ON w.id = a.piecewise_id WHERE a.role = 'subgraph' ORDER BY a.id") ==
        std::vector<std::string>{"vllm_submod_0|1", "vllm_submod_2|1"});
}
