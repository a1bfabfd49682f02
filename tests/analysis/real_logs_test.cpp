// The analyses on real PyTorch logs (/work/shared/logs/torch): the expected values are read off
// the logs with grep and written here as literals, each with the line it comes from.
#include <catch2/catch.hpp>

#include "analysis/analysis_harness.hpp"
#include "analysis/findings_messages.hpp"

using tlscope::test::AnalyzedDb;

namespace {
std::string real_log(const std::string& name) {
  return std::string(TLSCOPE_SHARED_LOGS) + "/" + name;
}
}  // namespace

TEST_CASE("comp_metrics.log: restarts and resume frames are graph breaks") {
  AnalyzedDb db("comp_metrics", {real_log("comp_metrics.log")});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  REQUIRE(db.ingest_problems() == "");
  // compilation_metrics of frames 0 and 1: restart_reasons ["'skip function graph_break in file
  // /data/users/jjwu/a/pytorch/torch/_dynamo/decorators.py'"]; frames 1 and 2 are
  // torch_dynamo_resume_in_fn_at_9551 and ..._at_9553 in test_misc.py.
  const std::string reason =
      "skip function graph_break in file /data/users/jjwu/a/pytorch/torch/_dynamo/decorators.py";
  const std::string file = "/data/users/jjwu/a/pytorch/test/dynamo/test_misc.py";
  CHECK(db.rows("SELECT compile_id, frame, reason, user_file, user_line, source, "
                "resume_compile_id FROM graph_breaks ORDER BY id") ==
        std::vector<std::string>{"0/0|fn|" + reason + "|" + file + "|9551|restart_reason|1/0",
                                 "1/0|torch_dynamo_resume_in_fn_at_9551|" + reason + "|" + file +
                                     "|9553|restart_reason|2/0"});
  // The three compiles: two restarted (attempt 1 metrics with a restart reason), one clean.
  CHECK(db.rows("SELECT compile_id, status, attempts FROM compiles ORDER BY id") ==
        std::vector<std::string>{"0/0|restarted|2", "1/0|restarted|2", "2/0|ok|1"});
  CHECK(db.rows("SELECT compile_id, attempt FROM restarts ORDER BY id") ==
        std::vector<std::string>{"0/0|0", "1/0|0"});
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind <> 'graph_break'") == "0");
  CHECK(db.scalar("SELECT count(*) FROM failures") == "0");
}

TEST_CASE("comp_failure.log: the BackendCompilerFailed failure with its reason") {
  AnalyzedDb db("comp_failure", {real_log("comp_failure.log")});
  REQUIRE(db.report().ok);
  REQUIRE(db.ingest_problems() == "");
  // compilation_metrics: "fail_type": "BackendCompilerFailed", "fail_reason": "backend=
  // 'broken_backend' raised:\nRuntimeError: broken backend", "fail_user_frame_filename": null.
  CHECK(db.rows("SELECT compile_id, frame, fail_type, fail_reason, user_file FROM failures") ==
        std::vector<std::string>{"0/0|fn|BackendCompilerFailed|backend='broken_backend' "
                                 "raised:\nRuntimeError: broken backend|NULL"});
  CHECK(db.scalar("SELECT status FROM compiles") == "failed");
  CHECK(db.rows("SELECT kind FROM findings") == std::vector<std::string>{"compile_failure"});
  // describe_tensor id 0 of 0/0 (sizes as written): size [4, 4], stride [4, 1], source L['x'],
  // storage 64 bytes.
  CHECK(db.rows("SELECT compile_id, input, size, stride, storage_bytes FROM tensors") ==
        std::vector<std::string>{"0/0|x|[4, 4]|[4, 1]|64"});
  // The dynamo_error artifact and the metrics belong to compile 0/0's directory.
  CHECK(db.scalar("SELECT count(*) FROM compile_directory WHERE name IN ('dynamo_error', "
                  "'compilation_metrics', 'dynamo_start', 'dynamo_output_graph')") == "4");
}

TEST_CASE("multi_rank_schedule: the rank whose collective schedule differs") {
  AnalyzedDb db("multi_rank_schedule", {real_log("multi_rank_schedule")});
  REQUIRE(db.report().ok);
  REQUIRE(db.ingest_problems() == "");
  // inductor_collective_schedule of frame 0: ranks 0 and 2 schedule all_reduce_, wait_tensor,
  // all_gather_into_tensor, reduce_scatter_tensor, wait_tensor, wait_tensor; rank 1 (file
  // ..._rank_1_n8zycf07.log, whose envelopes say "rank": 0) lacks reduce_scatter_tensor and a
  // wait. Frame 1's schedules agree.
  CHECK(db.rows("SELECT aspect, compile_id, ranks, other_ranks FROM rank_divergence") ==
        std::vector<std::string>{"collective_schedule|0/0|[1]|[0,2]"});
  std::string text = tlscope::test::findings_messages(db.db());
  INFO(text);
  CHECK(text.find("collective schedule of compile 0/0 differs between ranks: rank 1 has "
                  "[all_reduce_, wait_tensor, all_gather_into_tensor, wait_tensor] where ranks 0, "
                  "2 (2 of 3) have [all_reduce_, wait_tensor, all_gather_into_tensor, "
                  "reduce_scatter_tensor, "
                  "wait_tensor, wait_tensor]") != std::string::npos);
}

TEST_CASE("multi_rank_logs: compile-id and cache differences between ranks") {
  AnalyzedDb db("multi_rank_logs", {real_log("multi_rank_logs")});
  REQUIRE(db.report().ok);
  REQUIRE(db.ingest_problems() == "");
  // Ranks 0 and 2 hold comp_failure.log's single failed compile 0/0 and no cache artifacts;
  // rank 1 compiles 0/0..0/14 (fx_graph_cache_hit for 0/0..0/9, miss for 0/10..0/14), rank 3
  // compiles 0/0..0/6, all hits.
  CHECK(db.rows("SELECT aspect, ranks, other_ranks FROM rank_divergence ORDER BY id") ==
        std::vector<std::string>{"compile_ids|[1]|[0,2]", "compile_ids|[3]|[0,2]",
                                 "cache|[1]|[0,2]", "cache|[3]|[0,2]"});
  CHECK(db.rows("SELECT rank, count(*) FROM compiles GROUP BY rank ORDER BY rank") ==
        std::vector<std::string>{"0|1", "1|15", "2|1", "3|7"});
  CHECK(db.rows("SELECT rank, result, count(*) FROM cache_events WHERE cache = 'fx_graph' "
                "GROUP BY rank, result ORDER BY rank, result") ==
        std::vector<std::string>{"1|hit|10", "1|miss|5", "3|hit|7"});
  // recompile_reasons of 0/1 on rank 1: "0/0: tensor 'x' size mismatch at index 0. expected 2,
  // actual 3".
  CHECK(db.rows("SELECT compile_id, prev_compile_id, guard_input, guard_property, guard_index, "
                "expected, actual FROM recompiles WHERE rank = 1 ORDER BY id LIMIT 1") ==
        std::vector<std::string>{"0/1|0/0|x|size|0|2|3"});
  CHECK(db.rows("SELECT rank, count(*) FROM recompiles GROUP BY rank ORDER BY rank") ==
        std::vector<std::string>{"1|14", "3|6"});
  CHECK(db.rows("SELECT kind, ranks FROM findings WHERE kind IN ('compile_failure', "
                "'recompile_storm') ORDER BY id") ==
        std::vector<std::string>{"compile_failure|[0]", "compile_failure|[2]",
                                 "recompile_storm|[1]"});
}
