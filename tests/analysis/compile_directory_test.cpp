// compile_directory on the real PyTorch logs: a payload is a graph only for the real graph kinds
// and artifact names, never because its name mentions "graph".
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "analysis/analysis_harness.hpp"

using tlscope::test::AnalyzedDb;

namespace {

std::vector<std::string> real_logs() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(TLSCOPE_SHARED_LOGS))
    if (e.path().extension() == ".log" || e.is_directory()) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("compile_directory files real graphs as graphs and graph-named metadata as artifacts") {
  for (const std::string& input : real_logs()) {
    INFO(input);
    AnalyzedDb db("compile_directory_" + std::filesystem::path(input).stem().string(), {input});
    REQUIRE(db.report().ok);
    // A payload is an FX graph printout when its first line is `class X(torch.nn.Module):`
    // (or an older `graph():`); JSON cache records that embed graph text are not.
    const std::string printout =
        "(substr(p.text, 1, instr(p.text || char(10), char(10))) LIKE 'class %(torch.nn.Module):%' "
        "OR p.text LIKE 'graph():%')";
    // Every payload filed as a graph is such a printout, or the graph's forward as code
    // (vllm_post_grad_diff.log's before_post_grad_graph is `def forward(self, x):` ...)...
    CHECK(db.scalar("SELECT count(*) FROM compile_directory d JOIN payloads p ON p.id = "
                    "d.payload_id WHERE d.category = 'graph' AND NOT (" +
                    printout + " OR p.text LIKE 'def forward(%')") == "0");
    // ...and every printout a compile logged is filed as a graph.
    CHECK(db.rows("SELECT DISTINCT d.name || ':' || d.category FROM compile_directory d JOIN "
                  "payloads p ON p.id = d.payload_id WHERE " +
                  printout + " AND d.category <> 'graph'") == std::vector<std::string>{});
  }
  // multi_rank_logs rank 1, read off the log: aot_forward_graph_fw_metadata is a
  // ViewAndMutationMeta(...) text, fx_graph_cache_hit a JSON record, after_pre_grad_graph a
  // `class GraphModule(torch.nn.Module):` printout, fx_graph_runnable a runnable script.
  AnalyzedDb db(
      "compile_directory_rank1",
      {std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs/dedicated_log_torch_trace_rank_1.log"});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT DISTINCT name || ':' || category FROM compile_directory WHERE name IN "
                "('aot_forward_graph_fw_metadata', 'fx_graph_cache_hit', 'after_pre_grad_graph', "
                "'before_post_grad_graph', 'fx_graph_runnable', 'dynamo_output_graph', "
                "'aot_inference_graph', 'inductor_post_grad_graph') ORDER BY 1") ==
        std::vector<std::string>{"after_pre_grad_graph:graph",
                                 "aot_forward_graph_fw_metadata:artifact",
                                 "aot_inference_graph:graph", "before_post_grad_graph:graph",
                                 "dynamo_output_graph:graph", "fx_graph_cache_hit:artifact",
                                 "fx_graph_runnable:code", "inductor_post_grad_graph:graph"});
}

// Each compile's directory is read per compile page: its events must be found within its own file,
// not among every rank's events of the same frame (quadratic in ranks: every rank has a frame 0/0).
TEST_CASE("compile_directory finds a compile's events by file and frame, also after re-analysis") {
  AnalyzedDb db("compile_directory_by_file",
                {std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs"});
  REQUIRE(db.report().ok);
  // The ranks share frame ids, so a look-up by frame alone would visit the other ranks' events.
  REQUIRE(std::stoi(db.scalar("SELECT count(DISTINCT file_id) FROM compiles WHERE frame_id = 0 "
                              "AND frame_compile_id = 0")) > 1);
  const std::string plan_of_one_compile =
      "EXPLAIN QUERY PLAN SELECT event_id FROM compile_directory WHERE compile_row = "
      "(SELECT min(id) FROM compiles)";
  auto uses_file_frame_index = [&] {
    for (const std::string& row : db.rows(plan_of_one_compile))
      if (row.find("events_file_frame (file_id=? AND frame_id=? AND frame_compile_id=?)") !=
          std::string::npos)
        return true;
    return false;
  };
  CHECK(uses_file_frame_index());
  // A database ingested before the index existed gets it from the next analysis.
  sqlite3_exec(db.db(), "DROP INDEX events_file_frame", nullptr, nullptr, nullptr);
  REQUIRE_FALSE(uses_file_frame_index());
  REQUIRE(tlscope::model::analysis::analyze(db.db()).ok);
  CHECK(uses_file_frame_index());
  // Every directory row is an event of the compile's own file.
  CHECK(db.scalar("SELECT count(*) FROM compile_directory d JOIN events e ON e.id = d.event_id "
                  "WHERE e.file_id <> d.file_id") == "0");
  CHECK(std::stoi(db.scalar("SELECT count(*) FROM compile_directory")) > 0);
}
