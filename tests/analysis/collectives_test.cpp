// Multi-rank analyses on hand-built collective records (docs/collectives-format.md): matching,
// desync, missing collectives, stragglers, bandwidth, and divergence of inductor schedules.
#include <catch2/catch.hpp>

#include <cstdio>

#include "analysis/findings_messages.hpp"
#include "analysis/fixture_db.hpp"
#include "tlscope/model/analysis/analyze.hpp"

using namespace tlscope::model::analysis;
using tlscope::test::Ctx;
using tlscope::test::FixtureDb;

namespace {

struct Op {
  std::string pg = "0", desc = "dp", ranks = "[0, 1, 2, 3]";
  int64_t seq = 1;
  std::string op = "all_reduce", sizes = "[[1024]]", dtype = "float32", state = "completed";
  double created = 0, started = 0, completed = 0;
};

void record(FixtureDb& db, int64_t rank, const Op& o) {
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "{\"pg_name\": \"%s\", \"pg_desc\": \"%s\", \"pg_ranks\": %s, \"pg_size\": 4, "
                "\"collective_seq_id\": %lld, \"op\": \"%s\", \"profiling_name\": \"nccl:%s\", "
                "\"input_sizes\": %s, \"output_sizes\": %s, \"input_dtypes\": [\"%s\"], "
                "\"output_dtypes\": [\"%s\"], \"in_msg_nelems\": 1024, \"out_msg_nelems\": 1024, "
                "\"bytes\": 4096, \"state\": \"%s\", \"time_created_us\": %.1f, "
                "\"time_started_us\": %.1f, \"time_completed_us\": %.1f, \"timeout_ms\": null}",
                o.pg.c_str(), o.desc.c_str(), o.ranks.c_str(), static_cast<long long>(o.seq),
                o.op.c_str(), o.op.c_str(), o.sizes.c_str(), o.sizes.c_str(), o.dtype.c_str(),
                o.dtype.c_str(), o.state.c_str(), o.created, o.started, o.completed);
  db.artifact(Ctx{}, "collective_op", buf, "json", rank);
}

// Four ranks, six all_reduces on dp; rank r arrives r*100 us after rank 0 (scheduling noise).
// Faults: rank 3 is 400 ms late at seq 3, rank 2 issues all_gather at seq 5. On tp (ranks 0, 1),
// rank 1 never issues seq 2 and rank 0 times out.
void faulty_run(FixtureDb& db, bool inject) {
  for (int64_t rank = 0; rank < 4; ++rank) {
    db.add_file("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank);
    for (int64_t seq = 1; seq <= 6; ++seq) {
      Op o;
      o.seq = seq;
      double base = 1e6 * static_cast<double>(seq);
      o.created = base + 100.0 * static_cast<double>(rank);
      o.started = base + 300.0 + (inject && seq == 3 ? 400'000.0 : 0.0);
      if (inject && seq == 3 && rank == 3) o.created = base + 400'300.0;
      o.completed = o.started + 1000.0;
      if (inject && seq == 5 && rank == 2) o.op = "all_gather";
      record(db, rank, o);
    }
    if (rank <= 1) {
      for (int64_t seq = 1; seq <= 2; ++seq) {
        if (inject && rank == 1 && seq == 2) continue;
        Op o;
        o.pg = "1";
        o.desc = "tp";
        o.ranks = "[0, 1]";
        o.seq = seq;
        o.created = 9e6 + 1e6 * static_cast<double>(seq) + 50.0 * static_cast<double>(rank);
        o.started = o.created + 100;
        o.completed = o.started + 500;
        if (inject && seq == 2) o.state = "timed_out";
        record(db, rank, o);
      }
    }
  }
}

}  // namespace

TEST_CASE("collectives: desync, missing and straggler named with their ranks") {
  FixtureDb db;
  faulty_run(db, true);
  AnalysisReport r = analyze(db.db());
  INFO(r.error);
  REQUIRE(r.ok);
  CHECK(db.scalar("SELECT count(*) FROM collectives") == "27");  // 4*6 + 2 + 1
  CHECK(db.rows("SELECT kind, ranks, other_ranks, pg_name, seq FROM findings ORDER BY id") ==
        std::vector<std::string>{"desync|[2]|[0,1,3]|0|5", "missing_collective|[1]|[0]|1|2",
                                 "straggler|[3]|[0,1,2]|0|3"});
  std::string text = tlscope::test::findings_messages(db.db());
  INFO(text);
  CHECK(text.find(
            "rank 2 issued all_gather where ranks 0-1, 3 (3 of 4) issued all_reduce at sequence 5 "
            "of group dp") != std::string::npos);
  CHECK(text.find("rank 0 reached sequence 2 of group tp (all_reduce) but rank 1 never did; "
                  "rank 0 timed out waiting") != std::string::npos);
  // 400300 us after rank 0; the others' median arrival is rank 1's, 100 us after rank 0.
  CHECK(text.find(
            "rank 3 arrived 400.2 ms after the others' median arrival at sequence 3 of group dp") !=
        std::string::npos);

  // The matches and timelines as the views read them.
  CHECK(db.scalar("SELECT count(*) FROM collective_matches") == "8");
  CHECK(db.rows("SELECT seq, last_rank, arrival_skew_us, wait_us FROM collective_matches "
                "ORDER BY pg_name, seq LIMIT 1 OFFSET 2") ==
        // The others waited 400300 + 400200 + 400100 us for rank 3.
        std::vector<std::string>{"3|3|400300.0|1200600.0"});
  // 4096 bytes in 1000 us.
  CHECK(db.scalar("SELECT duration_us = 1000 AND abs(bandwidth_gbps - 4096.0 / 1000 / 1e3) < "
                  "1e-12 FROM collective_matches ORDER BY pg_name, seq LIMIT 1") == "1");
  CHECK(db.scalar(
            "SELECT ops_agree FROM collective_matches ORDER BY pg_name, seq LIMIT 1 OFFSET 4") ==
        "0");
  CHECK(
      db.scalar(
          "SELECT missing_ranks FROM collective_matches ORDER BY pg_name, seq LIMIT 1 OFFSET 7") ==
      "[1]");
  CHECK(db.scalar("SELECT count(*) FROM collectives WHERE rank = 1") == "7");
  CHECK(db.scalar("SELECT op FROM collectives WHERE rank = 2 ORDER BY pg_name, seq LIMIT 1 "
                  "OFFSET 4") == "all_gather");
  CHECK(db.scalar(
            "SELECT times_last FROM collective_rank_lateness WHERE pg_name = '0' AND rank = 3") ==
        "6");
}

TEST_CASE("collectives: a clean run has no findings") {
  FixtureDb db;
  faulty_run(db, false);
  AnalysisReport r = analyze(db.db());
  REQUIRE(r.ok);
  CHECK(db.scalar("SELECT count(*) FROM collective_matches") == "8");
  CHECK(db.scalar("SELECT count(*) FROM findings") == "0");
  CHECK(tlscope::test::findings_messages(db.db()).empty());
  CHECK(db.rows("SELECT pg_name, pg_desc, collectives, bytes FROM collective_groups") ==
        std::vector<std::string>{"0|dp|6|24576", "1|tp|2|8192"});
}

TEST_CASE("collectives: unreadable records are reported, not dropped") {
  FixtureDb db;
  db.add_file("dedicated_log_torch_trace_rank_0.log", 0);
  db.artifact(Ctx{}, "collective_op", "{\"pg_name\": \"0\", broken", "json", 0);
  REQUIRE(analyze(db.db()).ok);
  // Stored as facts: the log file and line, and what was wrong.
  CHECK(db.rows("SELECT kind, file, line, json_extract(detail, '$.problem') FROM findings") ==
        std::vector<std::string>{"bad_record|dedicated_log_torch_trace_rank_0.log|1|invalid_json"});
  CHECK(tlscope::test::findings_messages(db.db()) ==
        "collective record at dedicated_log_torch_trace_rank_0.log:1 was skipped: its payload is "
        "not valid JSON\n");
}

TEST_CASE("collectives: only the records the collectives pass skipped are bad records") {
  FixtureDb db;
  db.add_file("dedicated_log_torch_trace_rank_0.log", 0);
  db.artifact(Ctx{}, "collective_op",
              "{\"pg_name\": \"0\", \"collective_seq_id\": 1, \"op\": \"all_reduce\", "
              "\"pg_ranks\": [0], \"time_created_us\": 1.0}",
              "json", 0);
  db.artifact(Ctx{}, "collective_op", "{\"pg_name\": \"0\", \"op\": \"all_reduce\"}", "json", 0);
  db.artifact(Ctx{}, "collective_op", "[1, 2", "json", 0);
  REQUIRE(analyze(db.db()).ok);
  CHECK(db.scalar("SELECT count(*) FROM collectives") == "1");
  CHECK(db.rows("SELECT json_extract(detail, '$.problem') FROM findings WHERE kind = "
                "'bad_record' ORDER BY id") ==
        std::vector<std::string>{"no_seq_id", "invalid_json"});
}

TEST_CASE("rank divergence: the rank whose inductor collective schedule differs") {
  FixtureDb db;
  // The shape of multi_rank_schedule: rank 1's schedule of compile 0/0 lacks the
  // reduce_scatter and one wait that ranks 0 and 2 schedule; compile 1/0 agrees.
  const std::string full =
      "[\n\"torch.ops._c10d_functional.all_reduce_.default\",\n"
      "\"torch.ops._c10d_functional.wait_tensor.default\",\n"
      "\"torch.ops._c10d_functional.reduce_scatter_tensor.default\",\n"
      "\"torch.ops._c10d_functional.wait_tensor.default\"\n]";
  const std::string short_one =
      "[\n\"torch.ops._c10d_functional.all_reduce_.default\",\n"
      "\"torch.ops._c10d_functional.wait_tensor.default\"\n]";
  for (int64_t rank = 0; rank < 3; ++rank) {
    db.add_file("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank);
    db.dynamo_start(tlscope::test::ctx(0, 0), {{"t.py", 1, "main"}});
    db.artifact(tlscope::test::ctx(0, 0), "inductor_collective_schedule",
                rank == 1 ? short_one : full, "json", 0);
    db.metrics(tlscope::test::ctx(0, 0), "f", ", graph_op_count", ", 4");
    db.dynamo_start(tlscope::test::ctx(1, 0), {{"t.py", 1, "main"}});
    db.artifact(tlscope::test::ctx(1, 0), "inductor_collective_schedule", short_one, "json", 0);
    db.metrics(tlscope::test::ctx(1, 0), "g", ", graph_op_count", ", 2");
  }
  REQUIRE(analyze(db.db()).ok);
  CHECK(db.rows("SELECT aspect, compile_id, ranks, other_ranks FROM rank_divergence") ==
        std::vector<std::string>{"collective_schedule|0/0|[1]|[0,2]"});
  std::string text = tlscope::test::findings_messages(db.db());
  INFO(text);
  CHECK(text.find(
            "collective schedule of compile 0/0 differs between ranks: rank 1 has "
            "[all_reduce_, wait_tensor] where ranks 0, 2 (2 of 3) have [all_reduce_, wait_tensor, "
            "reduce_scatter_tensor, wait_tensor]") != std::string::npos);
}

TEST_CASE("collectives: a swapped pair of collectives is two desyncs") {
  // As the sample runtime's desync --desync-kind order: rank 2 all_reduces its two gradients in
  // the other order, so sequence 2 and 3 each disagree on the input size.
  FixtureDb db;
  for (int64_t rank = 0; rank < 4; ++rank) {
    db.add_file("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank);
    for (int64_t seq = 1; seq <= 4; ++seq) {
      Op o;
      o.seq = seq;
      o.created = 1e6 * static_cast<double>(seq) + static_cast<double>(rank);
      o.started = o.created + 10;
      o.completed = o.started + 100;
      bool first = seq == 2, second = seq == 3;
      if (rank == 2) std::swap(first, second);
      if (first) o.sizes = "[[4]]";
      if (second) o.sizes = "[[32, 4]]";
      record(db, rank, o);
    }
  }
  REQUIRE(analyze(db.db()).ok);
  CHECK(db.rows("SELECT kind, ranks, other_ranks, seq FROM findings ORDER BY id") ==
        std::vector<std::string>{"desync|[2]|[0,1,3]|2", "desync|[2]|[0,1,3]|3"});
  CHECK(tlscope::test::findings_messages(db.db()).find(
            "rank 2 issued all_reduce of [[32,4]] where ranks 0-1, 3 (3 of 4) "
            "issued all_reduce of [[4]] at sequence 2 of group dp") != std::string::npos);
}

TEST_CASE("collectives: a send matches its recv") {
  FixtureDb db;
  for (int64_t rank = 0; rank < 2; ++rank) {
    db.add_file("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank);
    Op o;
    o.pg = "2";
    o.desc = "p2p_0_1";
    o.ranks = "[0, 1]";
    o.op = rank == 0 ? "send" : "recv";
    o.created = 100 + static_cast<double>(rank);
    o.started = 110;
    o.completed = 200;
    record(db, rank, o);
  }
  REQUIRE(analyze(db.db()).ok);
  CHECK(db.scalar("SELECT count(*) FROM findings") == "0");
  CHECK(db.rows("SELECT op, ops_agree FROM collective_matches") ==
        std::vector<std::string>{"send/recv|1"});
}
