// The words of findings and ingest errors, made from their facts (finding_words.hpp,
// ingest_errors.hpp): each kind's sentence from the columns and detail values the analysis
// stores, and the place of an ingest error from its columns.
#include <catch2/catch.hpp>

#include "tlscope/model/analysis/finding_kinds.hpp"
#include "tlscope/views/finding_words.hpp"
#include "tlscope/views/ingest_errors.hpp"

using namespace tlscope::views;

namespace {

FindingFacts facts(std::string kind, std::vector<int64_t> ranks,
                   std::map<std::string, std::string, std::less<>> values) {
  FindingFacts f;
  f.kind = std::move(kind);
  f.ranks = std::move(ranks);
  f.values = std::move(values);
  return f;
}

}  // namespace

TEST_CASE("finding words: every kind of the one list has words of its own") {
  for (const auto& k : tlscope::model::analysis::kFindingKinds) {
    INFO(k.kind);
    FindingFacts f = facts(std::string(k.kind), {}, {});
    const std::string body = finding_body(f, 4).text();
    CHECK_FALSE(body.empty());
    CHECK(body.find("a finding of kind") == std::string::npos);
    CHECK_FALSE(k.values.empty());  // its detail keys are declared
  }
  FindingFacts future = facts("kind_from_the_future", {2}, {});
  future.compile_id = "0/1";
  CHECK(finding_sentence(future, 4) ==
        "a finding of kind kind_from_the_future (compile 0/1) on rank 2");
}

TEST_CASE("finding words: single-process kinds say their rank first, from the columns") {
  FindingFacts g = facts("graph_break", {3}, {{"reason", "Tensor.item() call"}});
  g.compile_id = "0/2";
  g.frame = "forward";
  g.file = "train.py";
  g.line = 41;
  CHECK(finding_sentence(g, 4) ==
        "rank 3: graph break in forward (compile 0/2) at train.py:41: Tensor.item() call");
  CHECK(finding_about_one_process("graph_break"));
  // Without a rank or a frame.
  g.ranks.clear();
  g.frame.clear();
  g.file.clear();
  CHECK(finding_sentence(g, 4) ==
        "graph break in (unknown frame) (compile 0/2): Tensor.item() call");

  FindingFacts r = facts("recompile", {0},
                         {{"failed_guard",
                           "tensor 'x' size mismatch at index 0. expected 4, "
                           "actual 6"},
                          {"prev_compile_id", "0/0"}});
  r.compile_id = "0/1";
  r.frame = "fn";
  CHECK(finding_sentence(r, 1) ==
        "rank 0: fn recompiled as 0/1 because tensor 'x' size mismatch at index 0. expected 4, "
        "actual 6 (guard of 0/0)");

  FindingFacts c = facts("compile_failure", {1}, {{"fail_type", "BackendCompilerFailed"}});
  c.compile_id = "0/0";
  c.frame = "fn";
  CHECK(finding_sentence(c, 2) ==
        "rank 1: compile 0/0 of fn failed with BackendCompilerFailed: (no reason)");

  FindingFacts s = facts("shape_specialized", {},
                         {{"symbol", "s0"},
                          {"value", "8"},
                          {"sources", "[\"L['x'].size()[0]\"]"},
                          {"reason", "x.size(0) is used as a Python int"}});
  s.compile_id = "0/1";
  s.file = "train.py";
  s.line = 9;
  CHECK(finding_sentence(s, 0) ==
        "s0 (L['x'].size()[0]) was specialized to 8 at train.py:9 because x.size(0) is used as a "
        "Python int (compile 0/1)");

  FindingFacts p = facts("collective_parity", {2},
                         {{"graph", "1"},
                          {"issued", "2"},
                          {"waits", "1"},
                          {"ops",
                           "[{\"op\":\"all_reduce\",\"scheduled\":2,\"generated\":1,"
                           "\"unwaited\":1}]"}});
  p.compile_id = "0/0";
  CHECK(finding_sentence(p, 4) ==
        "rank 2: compile 0/0 (graph 2): the collective schedule and the generated code disagree: "
        "all_reduce scheduled 2 time(s), called 1; 1 all_reduce in the generated code never "
        "waited on (no wait_tensor for its buffer); the schedule issues 2 collective(s) but waits "
        "1 time(s)");
}

TEST_CASE("finding words: collective kinds name their ranks inside the sentence") {
  FindingFacts d = facts("desync", {2},
                         {{"groups",
                           "[{\"ranks\":[0,1,3],\"op\":\"all_reduce\",\"input_sizes\":\"[[4]]\","
                           "\"dtype\":\"float32\"},{\"ranks\":[2],\"op\":\"all_reduce\","
                           "\"input_sizes\":\"[[8]]\",\"dtype\":\"float32\"}]"},
                          {"reference", "0"},
                          {"differs", "size"}});
  d.other_ranks = {0, 1, 3};
  d.pg_name = "0";
  d.pg_desc = "dp";
  d.seq = 5;
  CHECK_FALSE(finding_about_one_process("desync"));
  CHECK(finding_sentence(d, 4) ==
        "rank 2 issued all_reduce of [[8]] where ranks 0-1, 3 (3 of 4) issued all_reduce of [[4]] "
        "at sequence 5 of group dp");
  FindingFacts more = facts("desync", {}, {{"more", "12"}, {"last_seq", "40"}});
  more.pg_name = "tp";
  more.seq = 17;
  CHECK(finding_sentence(more, 4) ==
        "12 more sequence ids of group tp disagree, from 17 to 40: the ranks' collective streams "
        "stay out of step");

  FindingFacts m =
      facts("missing_collective", {3}, {{"op", "all_reduce"}, {"timed_out_ranks", "[0,1]"}});
  m.other_ranks = {0, 1, 2};
  m.pg_name = "0";
  m.seq = 7;
  CHECK(finding_sentence(m, 4) ==
        "ranks 0-2 (3 of 4) reached sequence 7 of group 0 (all_reduce) but rank 3 never did; ranks "
        "0-1 (2 of 4) timed out waiting");

  FindingFacts s = facts("straggler", {1},
                         {{"op", "all_gather"}, {"lag_us", "250000.0"}, {"wait_us", "760000.4"}});
  s.other_ranks = {0, 2, 3};
  s.pg_name = "0";
  s.seq = 2;
  CHECK(finding_sentence(s, 4) ==
        "rank 1 arrived 250.0 ms after the others' median arrival at sequence 2 of group 0 "
        "(all_gather); ranks 0, 2-3 (3 of 4) waited 760.0 ms in total");

  FindingFacts v = facts("rank_divergence", {1},
                         {{"aspect", "collective_schedule"},
                          {"differing",
                           "[{\"ranks\":[1],\"value\":\"[\\\"torch.ops._c10d_functional.all_"
                           "reduce_.default\\\"]\"}]"},
                          {"other_value", "[]"}});
  v.other_ranks = {0, 2};
  v.compile_id = "0/0";
  CHECK(finding_sentence(v, 3) ==
        "the collective schedule of compile 0/0 differs between ranks: rank 1 has [all_reduce_] "
        "where ranks 0, 2 (2 of 3) have []");

  FindingFacts b = facts("bad_record", {0}, {{"problem", "no_payload"}, {"event_id", "9"}});
  b.file = "rank0.log";
  b.line = 12;
  CHECK(finding_sentence(b, 1) ==
        "collective record at rank0.log:12 was skipped: it has no payload");
}

TEST_CASE("finding words: log texts are quoted, so one fact on many ranks has one key") {
  auto key = [](int64_t rank, const std::string& object_id) {
    FindingFacts r = facts("recompile", {rank},
                           {{"failed_guard", "___check_obj_id(L['self'].fn, " + object_id + ")"}});
    r.compile_id = "1/1";
    r.frame = "fn";
    return finding_body(r, 4).fact().key;
  };
  CHECK(key(0, "140234567890112") == key(1, "140234567894208"));
  // tlscope's own words are never slots: a frame named like a number stays itself.
  FindingFacts storm = facts("recompile_storm", {0}, {{"recompiles", "12345678"}});
  storm.frame = "f";
  FindingFacts storm2 = storm;
  storm2.values["recompiles"] = "87654321";
  CHECK(finding_body(storm, 1).fact().key != finding_body(storm2, 1).fact().key);
}

TEST_CASE("ingest errors are worded from their place columns") {
  IngestErrorRow e;
  e.path = "rank0.log";
  e.line = 12;
  e.kind = "bad_header";
  e.reason = "not a glog header";
  e.line_count = 3;
  CHECK(ingest_error_place(e) == "rank0.log:12");
  CHECK(ingest_error_what(e) == "not a glog header (3 lines)");
  CHECK(ingest_error_sentence(e) == "rank0.log:12: not a glog header (3 lines)");
  IngestErrorRow missing;
  missing.kind = "io";
  missing.reason = "gone.log: no such file or directory";
  CHECK(ingest_error_sentence(missing) == "(input): gone.log: no such file or directory");
}
