// PyTorch 2.14/2.15's artifacts that tlscope reads into their own tables, from
// fixtures/torch215.log (written by fixtures/torch215_log.py): PGO profiles loaded and saved, the
// precompile Dynamo cache's records, the overlap scheduler's graphs and runtime estimates,
// collective bucketing, and the SPMD graph check as a finding.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/analysis_harness.hpp"
#include "analysis/findings_messages.hpp"

using tlscope::test::AnalyzedDb;

namespace {

const std::string kTorch215Log = std::string(TLSCOPE_FIXTURES) + "/torch215.log";
const std::string kRank1 = std::string(TLSCOPE_FIXTURES) + "/torch215_rank1.log";

}  // namespace

TEST_CASE("torch215.log: ingests whole") {
  AnalyzedDb db("torch215_ingest", {kTorch215Log});
  REQUIRE(db.ingest_problems().empty());
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(*) FROM ingest_errors") == "0");
}

TEST_CASE("PGO code state: the profile loaded and the profiles saved, entry by entry") {
  AnalyzedDb db("torch215_pgo", {kTorch215Log});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT action || ' ' || store || ' ' || coalesce(compile_id, '-') || ' frames=' "
                "|| frames || ' entries=' || entries || ' dynamic=' || dynamic_entries || ' ' || "
                "coalesce(suggested_sources, '-') FROM pgo_profiles ORDER BY event_id") ==
        std::vector<std::string>{"get local 0/0 frames=2 entries=3 dynamic=1 -",
                                 "put local - frames=3 entries=4 dynamic=3 L['x'],L['n'],L['y']",
                                 "put remote - frames=3 entries=4 dynamic=3 L['x'],L['n'],L['y']"});
  CHECK(db.rows("SELECT e.function || ':' || e.firstlineno || ' ' || e.filename || ' ' || "
                "e.source || ' = ' || e.entry || ' ' || e.dynamic FROM pgo_profile_entries e JOIN "
                "pgo_profiles p ON p.id = e.profile_id WHERE p.action = 'get' ORDER BY e.id") ==
        std::vector<std::string>{
            "forward:12 /home/user/model.py L['x'] = tensor size=[?, 4] stride=[4, 1] 1",
            "forward:12 /home/user/model.py L['n'] = scalar 3 0",
            "helper:40 /home/user/model.py L['self']._modules['proj']._parameters['weight'] = "
            "tensor size=[4, 4] stride=[4, 1] 0"});
  // The code id is kept as logged (with PyTorch's file hash), for a look-up by text.
  CHECK(db.scalar("SELECT code_id FROM pgo_profile_entries WHERE source = 'L[''y'']' LIMIT 1") ==
        "hash(1a2b3c4d)/home/user/model.py:60:tail");
}

TEST_CASE("Dynamo cache records: saved, bypassed, failed and hit, with their keys") {
  AnalyzedDb db("torch215_dynamo_cache", {kTorch215Log});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT name || ' ' || outcome || ' entries=' || coalesce(entries, '-') || "
                "' backends=' || coalesce(backends, '-') || ' keys=' || coalesce(keys, '-') || "
                "' detail=' || coalesce(detail, '-') FROM dynamo_cache_records ORDER BY "
                "event_id") ==
        std::vector<std::string>{
            "dynamo_cache_entries saved entries=2 backends=1 keys=model.forward:1a2b, "
            "model.helper:5e6f detail=-",
            "dynamo_cache_bypass bypass entries=- backends=- keys=model.helper:5e6f "
            "detail=missing backend _backend_1",
            "dynamo_cache_exception error entries=- backends=- keys=model.tail:9a9a "
            "detail=cannot pickle 'generator' object",
            "dynamo_cache_save_contents saved entries=1 backends=1 keys=model.forward:1a2b "
            "detail=-",
            "dynamo_cache_hit hit entries=- backends=- keys=model.forward:1a2b detail=-"});
}

TEST_CASE("Overlap scheduling: the graphs before and after, and what the pass moved") {
  AnalyzedDb db("torch215_overlap", {kTorch215Log});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT scheduler || ' ' || stage || ' ' || compile_id || ' lines=' || lines || "
                "' collectives=' || collectives || ' waits=' || waits || ' +' || "
                "coalesce(lines_added, '-') || ' -' || coalesce(lines_removed, '-') || ' paired=' "
                "|| (before_event_id IS NOT NULL) FROM overlap_schedules ORDER BY event_id") ==
        std::vector<std::string>{"greedy before 1/0 lines=8 collectives=2 waits=2 +- -- paired=0",
                                 "greedy after 1/0 lines=8 collectives=2 waits=2 +1 -1 paired=1"});
  CHECK(db.rows("SELECT world_size || ' ' || collective || ' ' || benchmarked_ms || ' ' || "
                "analytical_nccl_ms || ' ' || analytical_inductor_ms FROM "
                "node_runtime_estimates ORDER BY id") ==
        std::vector<std::string>{"2 all_gather_into_tensor: (128 bytes) 0.031 0.02 0.025",
                                 "2 reduce_scatter_tensor: (64 bytes) 0.018 0.012 0.015"});
}

TEST_CASE("fx_bucketing: one row per bucket, a free-text record gets none") {
  AnalyzedDb db("torch215_buckets", {kTorch215Log});
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT collective || ' #' || bucket_index || ' size=' || size || ' ' || nodes "
                "FROM fx_buckets ORDER BY id") ==
        std::vector<std::string>{
            "all_gather #0 size=2 all_gather_into_tensor, all_gather_into_tensor_1",
            "all_gather #1 size=1 all_gather_into_tensor_2",
            "reduce_scatter #0 size=1 reduce_scatter_tensor"});
  CHECK(db.scalar("SELECT count(*) FROM fx_buckets WHERE name LIKE '%TRIE'") == "0");
}

TEST_CASE("inductor_spmd_graph_mismatch: a finding naming the ranks and the first differing node") {
  AnalyzedDb db("torch215_spmd", {kTorch215Log, kRank1});
  REQUIRE(db.ingest_problems().empty());
  REQUIRE(db.report().ok);
  // Each rank logged the report: two rows, one finding.
  CHECK(db.rows("SELECT rank || ' ' || reporting_rank || '/' || world_size || ' [' || graph || "
                "'] ' || ranks || ' node ' || node_index || ' ' || other_rank || ' ' || "
                "node_counts FROM spmd_graph_mismatches ORDER BY id") ==
        std::vector<std::string>{
            "0 0/2 [] [0,1] node 2 1 [{\"rank\":0,\"nodes\":6},{\"rank\":1,\"nodes\":5}]",
            "1 1/2 [] [0,1] node 2 1 [{\"rank\":0,\"nodes\":6},{\"rank\":1,\"nodes\":5}]"});
  CHECK(db.rows("SELECT severity || ' ' || ranks || ' ' || compile_id || ' ' || json_extract("
                "detail, '$.reports') || ' ' || json_extract(detail, '$.reference_node') FROM "
                "findings WHERE kind = 'spmd_graph_mismatch'") ==
        std::vector<std::string>{"error [0,1] 1/0 2 aten.mm.default "
                                 "meta=TensorMetadata(dtype=torch.float32, "
                                 "shape=torch.Size([8, 4]))"});
  const std::string words = tlscope::test::findings_messages(db.db(), "spmd_graph_mismatch");
  INFO(words);
  CHECK(words.find("ranks 0-1 (all 2) compiled different graphs for compile 1/0: first "
                   "difference at node 2, rank 0 has aten.mm.default meta=") != std::string::npos);
  CHECK(words.find("where rank 1 has aten.add.Tensor meta=") != std::string::npos);
}

TEST_CASE("inductor_spmd_graph_mismatch: a report with no readable section is still a finding") {
  const std::string log = (std::filesystem::temp_directory_path() / "tlscope_spmd_plain.log");
  {
    std::ofstream out(log);
    out << "V1205 04:00:01.000001 7 torch/_inductor/fx_passes/spmd_check.py:99] "
           "{\"artifact\": {\"name\": \"inductor_spmd_graph_mismatch\", \"encoding\": "
           "\"string\"}, \"rank\": 3, \"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0, "
           "\"has_payload\": \"c0f05f027690a4b676c7e5e0dd6b8485\"}\n"
           "\tgraphs differ\n";
  }
  AnalyzedDb db("torch215_spmd_plain", {log});
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT ranks || ' ' || coalesce(graph, 'NULL') FROM spmd_graph_mismatches") ==
        "[] NULL");
  CHECK(db.rows("SELECT ranks || ' ' || compile_id FROM findings WHERE kind = "
                "'spmd_graph_mismatch'") == std::vector<std::string>{"[3] 0/0"});
}
