// Single-process analyses on hand-built ingest tables: compile status, the compile tree, graph
// breaks from each source, recompiles, failures, tensors, cache and idempotence.
#include <catch2/catch.hpp>
#include <set>

#include "analysis/findings_messages.hpp"
#include "analysis/fixture_db.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/compile_tree.hpp"

using namespace tlscope::model::analysis;
using tlscope::test::ctx;
using tlscope::test::FixtureDb;

namespace {

std::string scratch_path(const std::string& name) {
  return std::string(TLSCOPE_BINARY_DIR) + "/tests/analysis_" + name;
}

void run(FixtureDb& db) {
  AnalysisReport r = analyze(db.db());
  INFO(r.error);
  REQUIRE(r.ok);
}

using Frames = std::vector<std::tuple<std::string, int64_t, std::string>>;

// The shape of comp_metrics.log: fn breaks at 9551, its resume function breaks at 9553, the last
// resume function compiles cleanly. Only restart_reasons and resume frames record the breaks.
void comp_metrics_shape(FixtureDb& db) {
  db.add_file("comp_metrics.log", std::nullopt);
  const std::string reason =
      "['\\'skip function graph_break in file /torch/_dynamo/decorators.py\\'']";
  Frames base = {{"test_misc.py", 9559, "test_graph_break_compilation_metrics"},
                 {"eval_frame.py", 410, "_fn"}};
  db.dynamo_start(ctx(0, 0), base);
  db.event("dynamo_output_graph", ctx(0, 0, 1), "{}", "graph");
  db.metrics(
      ctx(0, 0, 1), "fn", ", graph_op_count, restart_reasons",
      ", 1, json('[\"''skip function graph_break in file /torch/_dynamo/decorators.py''\"]')");
  Frames f1 = base;
  f1.emplace_back("user.py", 9551, "fn");
  db.dynamo_start(ctx(1, 0), f1);
  db.metrics(
      ctx(1, 0, 1), "torch_dynamo_resume_in_fn_at_9551", ", graph_op_count, restart_reasons",
      ", 1, json('[\"''skip function graph_break in file /torch/_dynamo/decorators.py''\"]')");
  Frames f2 = f1;
  f2.emplace_back("user.py", 9553, "torch_dynamo_resume_in_fn_at_9551");
  db.dynamo_start(ctx(2, 0), f2);
  db.metrics(ctx(2, 0), "torch_dynamo_resume_in_fn_at_9553", ", graph_op_count, restart_reasons",
             ", 1, '[]'");
  (void)reason;
}

}  // namespace

TEST_CASE("compiles: status per compile and the stack trie") {
  FixtureDb db;
  comp_metrics_shape(db);
  run(db);
  CHECK(db.rows("SELECT compile_id, status, attempts, co_name FROM compiles ORDER BY id") ==
        std::vector<std::string>{"0/0|restarted|2|fn",
                                 "1/0|restarted|2|torch_dynamo_resume_in_fn_at_9551",
                                 "2/0|ok|1|torch_dynamo_resume_in_fn_at_9553"});
  tlscope::views::Database saved(db.saved_copy(scratch_path("compile_tree.db")));
  auto loaded = tlscope::views::load_compile_tree(saved);
  INFO(loaded.error);
  REQUIRE(loaded.ok());
  const auto& tree = loaded->frames;
  const auto& compiles = loaded->compiles;
  // Shared prefix (2 frames), then one branch per extra frame: 2 + 1 + 1 nodes.
  REQUIRE(tree.size() == 4);
  CHECK(tree[0].name == "test_graph_break_compilation_metrics");
  CHECK(tree[1].name == "_fn");
  REQUIRE(tree[1].compiles.size() == 1);
  CHECK(compiles[tree[1].compiles[0]].compile_id == "0/0");
  CHECK(tree[2].name == "fn");
  CHECK(tree[2].line == 9551);
  CHECK(compiles[tree[3].compiles.at(0)].compile_id == "2/0");
  CHECK(compiles[tree[3].compiles.at(0)].status == "ok");
}

TEST_CASE("graph breaks: restart reasons located by resume frames") {
  FixtureDb db;
  comp_metrics_shape(db);
  run(db);
  // The analysis tables as the views read them (one row each, in log order).
  CHECK(db.rows("SELECT compile_id, frame, reason, user_file, user_line, source, "
                "resume_compile_id FROM graph_breaks ORDER BY id") ==
        std::vector<std::string>{
            "0/0|fn|skip function graph_break in file /torch/_dynamo/decorators.py|user.py|9551|"
            "restart_reason|1/0",
            "1/0|torch_dynamo_resume_in_fn_at_9551|skip function graph_break in file "
            "/torch/_dynamo/decorators.py|user.py|9553|restart_reason|2/0"});
  // Same reason, different lines: two rows.
  CHECK(db.scalar("SELECT count(*) FROM graph_break_summary") == "2");
  CHECK(db.scalar("SELECT count(*) FROM restarts") == "2");
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind = 'graph_break'") == "2");
}

TEST_CASE("graph breaks: one artifact, its restart and its resume frame are one break") {
  FixtureDb db;
  db.add_file("dedicated_log_torch_trace_rank_0.log", 0);
  const std::string text =
      "Graph break in user code at model.py:42\nGraph Break Reason: data-dependent branch\n"
      "User code traceback:\n  File \"train.py\", line 5, in main\n  File \"model.py\", line 42, "
      "in forward\n";
  for (int step = 0; step < 3; ++step) {
    // The same break hit by three frames' compiles dedups into one summary row of count 3.
    int64_t frame = step * 2;
    db.dynamo_start(ctx(frame, 0), {{"train.py", 5, "main"}});
    db.artifact(ctx(frame, 0), "dynamo_graph_break_reason", text);
    db.metrics(ctx(frame, 0, 1), "forward", ", graph_op_count, restart_reasons",
               ", 2, '[\"Graph break in user code\"]'");
    db.dynamo_start(ctx(frame + 1, 0), {{"train.py", 5, "main"}});
    db.metrics(ctx(frame + 1, 0), "torch_dynamo_resume_in_forward_at_42", ", graph_op_count",
               ", 1");
  }
  run(db);
  CHECK(db.rows("SELECT source, reason, user_file, user_line, rank, resume_compile_id FROM "
                "graph_breaks ORDER BY id") ==
        std::vector<std::string>{"artifact|data-dependent branch|model.py|42|0|1/0",
                                 "artifact|data-dependent branch|model.py|42|0|3/0",
                                 "artifact|data-dependent branch|model.py|42|0|5/0"});
  CHECK(db.rows("SELECT count, compile_ids, ranks FROM graph_break_summary") ==
        std::vector<std::string>{"3|[\"0/0\",\"2/0\",\"4/0\"]|[0]"});
}

TEST_CASE("recompiles: guard failure chain, shape changes and dynamic dims") {
  FixtureDb db;
  db.add_file("run.log", std::nullopt);
  db.dynamo_start(ctx(0, 0), {{"train.py", 5, "main"}});
  db.tensor(ctx(0, 0), 0, 0, "L['x']", "[4, 4]", "[4, 1]");
  db.metrics(ctx(0, 0), "forward", ", graph_op_count", ", 3");
  db.artifact(ctx(0, 1), "recompile_reasons",
              "[\n\"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8\"\n]", "json");
  db.dynamo_start(ctx(0, 1), {{"train.py", 5, "main"}});
  db.tensor(ctx(0, 1), 0, 0, "L['x']", "[8, 4]", "[4, 1]");
  db.metrics(ctx(0, 1), "forward", ", graph_op_count, recompile_reason",
             ", 3, '0/0: tensor ''x'' size mismatch at index 0. expected 4, actual 8'");
  db.artifact(ctx(0, 2), "recompile_reasons",
              "[\n\"0/1: tensor 'x' size mismatch at index 0. expected 8, actual 16\",\n"
              "\"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 16\"\n]",
              "json");
  db.dynamo_start(ctx(0, 2), {{"train.py", 5, "main"}});
  db.tensor(ctx(0, 2), 0, 0, "L['x']", "[\"s0\", 4]", "[4, 1]");
  db.metrics(ctx(0, 2), "forward", ", graph_op_count", ", 3");
  run(db);
  CHECK(db.rows("SELECT compile_id, frame, prev_compile_id, reason, guard_property, expected, "
                "actual FROM recompiles ORDER BY id") ==
        std::vector<std::string>{
            "0/1|forward|0/0|tensor 'x' size mismatch at index 0. expected 4, actual 8|size|4|8",
            "0/2|forward|0/1|tensor 'x' size mismatch at index 0. expected 8, actual 16|size|8|"
            "16"});
  CHECK(db.rows("SELECT compile_id, prev_compile_id, input, prev_size, size FROM "
                "tensor_shape_changes ORDER BY id") ==
        std::vector<std::string>{"0/1|0/0|x|[4, 4]|[8, 4]", "0/2|0/1|x|[8, 4]|[\"s0\", 4]"});
  CHECK(db.rows("SELECT frame, compile_id, input, dim, symbol FROM dynamic_dims") ==
        std::vector<std::string>{"forward|0/2|x|0|s0"});
  CHECK(db.scalar("SELECT symbolic FROM tensors WHERE compile_id = '0/2'") == "1");
  CHECK(db.scalar("SELECT storage_bytes FROM tensors WHERE compile_id = '0/0'") == "64");
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind = 'recompile'") == "2");
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind = 'recompile_storm'") == "0");
}

TEST_CASE("failures: fail_type, reason and user frame, status failed") {
  FixtureDb db;
  db.add_file("comp_failure.log", std::nullopt);
  db.dynamo_start(ctx(0, 0), {{"test_misc.py", 10765, "test"}});
  db.artifact(ctx(0, 0), "dynamo_error", "Traceback ...");
  db.metrics(ctx(0, 0), "fn",
             ", fail_type, fail_reason, fail_user_frame_filename, "
             "fail_user_frame_lineno",
             ", 'BackendCompilerFailed', 'backend=''broken_backend'' raised:\nRuntimeError: "
             "broken backend', 'test_misc.py', 10757");
  run(db);
  CHECK(db.scalar("SELECT status FROM compiles") == "failed");
  CHECK(db.rows("SELECT compile_id, frame, fail_type, user_file, user_line FROM failures") ==
        std::vector<std::string>{"0/0|fn|BackendCompilerFailed|test_misc.py|10757"});
  std::string text = tlscope::test::findings_messages(db.db());
  CHECK(
      text.find("compile 0/0 of fn failed with BackendCompilerFailed: backend='broken_backend'") !=
      std::string::npos);
}

TEST_CASE("cache events and compile phases per compile id") {
  FixtureDb db;
  db.add_file("run.log", std::nullopt);
  db.dynamo_start(ctx(0, 0), {{"train.py", 5, "main"}});
  db.artifact(ctx(0, 0), "aotautograd_cache_miss", "{}", "json");
  db.artifact(ctx(0, 0), "fx_graph_cache_bypass", "{}", "json");
  db.metrics(ctx(0, 0), "forward",
             ", graph_op_count, dynamo_cumulative_compile_time_us, "
             "duration_us",
             ", 2, 1500, 2000");
  int64_t e = db.event("chromium_event", ctx(0, 0), "{}");
  db.exec(
      "INSERT INTO chromium_event_rows(event_id, file_id, name, ph, ts, dur, compile_id) "
      "VALUES (" +
      std::to_string(e) + ", 1, 'inductor_compile', 'B', 100.0, 700.0, '0/0')");
  run(db);
  CHECK(db.rows("SELECT compile_id, cache, result FROM cache_events ORDER BY id") ==
        std::vector<std::string>{"0/0|aotautograd|miss", "0/0|fx_graph|bypass"});
  CHECK(db.rows("SELECT phase, source, duration_us FROM compile_phases ORDER BY source, phase") ==
        std::vector<std::string>{"inductor_compile|chromium|700.0", "dynamo|metrics|1500.0"});
  tlscope::views::Database saved(db.saved_copy(scratch_path("compile_directory.db")));
  auto slow = tlscope::views::load_slowest_compiles(saved, 5);
  INFO(slow.error);
  REQUIRE(slow->size() == 1);
  CHECK(slow->at(0).duration_us == Approx(2000));
  auto dir = tlscope::views::load_compile_directory(saved, slow->at(0).row);
  INFO(dir.error);
  std::vector<std::string> names;
  for (auto& d : *dir) names.push_back(d.name + ":" + d.category);
  CHECK(names == std::vector<std::string>{"dynamo_start:other", "aotautograd_cache_miss:artifact",
                                          "fx_graph_cache_bypass:artifact",
                                          "compilation_metrics:metrics"});
}

TEST_CASE("analyze is idempotent and refuses a database without ingest tables") {
  FixtureDb db;
  comp_metrics_shape(db);
  run(db);
  std::string first = tlscope::test::findings_messages(db.db());
  run(db);
  CHECK(tlscope::test::findings_messages(db.db()) == first);
  CHECK(db.scalar("SELECT count(*) FROM compiles") == "3");

  sqlite3* empty = nullptr;
  sqlite3_open(":memory:", &empty);
  AnalysisReport r = analyze(empty);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("'files'") != std::string::npos);
  sqlite3_close(empty);
}

TEST_CASE("every analysis table is written by a pass analyze runs, and reported with its rows") {
  FixtureDb db;
  comp_metrics_shape(db);
  AnalysisReport r = analyze(db.db());
  REQUIRE(r.ok);
  std::set<std::string> passes;
  for (const auto& [pass, seconds] : r.pass_seconds) passes.insert(pass);
  REQUIRE(r.table_rows.size() == analysis_tables().size());
  for (size_t i = 0; i < analysis_tables().size(); ++i) {
    const AnalysisTable& t = analysis_tables()[i];
    INFO(t.name);
    CHECK(passes.count(t.pass) == 1);
    CHECK(r.table_rows[i].first == t.name);
    CHECK(std::string(t.ddl).find(std::string("CREATE TABLE ") + t.name + "(") !=
          std::string::npos);
    CHECK(db.scalar(std::string("SELECT count(*) FROM sqlite_master WHERE name = '") + t.name +
                    "'") == "1");
  }
  CHECK(r.table_rows[1] == std::pair<std::string, int64_t>{"compiles", 3});
}
