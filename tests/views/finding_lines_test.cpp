// Findings at scale: rank sets as runs with a count, one line per fact (per-process values cut
// out), lines ordered by what they cost, and a hint from the known-causes table on every line.
// Checked on hand-built findings tables and on the real multi-rank logs (counts read off them).
#include <catch2/catch.hpp>

#include "tlscope/views/finding_causes.hpp"
#include "tlscope/views/finding_facts.hpp"
#include "tlscope/views/findings.hpp"
#include "views/real_db.hpp"
#include "views/schema_fixture.hpp"

using namespace tlscope::views;
using tlscope::views::rank_runs;

namespace {

std::string fixture(const std::string& name, const std::string& extra_sql) {
  return tlscope::test::make_fixture_db(std::string(TLSCOPE_BINARY_DIR) + "/tests/" + name,
                                        extra_sql);
}

const FindingGroup* group_of(const Findings& f, std::string_view kind) {
  for (const FindingGroup& g : f.groups)
    if (g.kind->kind == kind) return &g;
  return nullptr;
}

std::vector<int64_t> iota(int64_t from, int64_t to) {  // [from, to]
  std::vector<int64_t> out;
  for (int64_t r = from; r <= to; ++r) out.push_back(r);
  return out;
}

}  // namespace

TEST_CASE("Rank sets read as runs with a count") {
  CHECK(rank_words({}, 4) == "no rank");
  CHECK(rank_words({2}, 1024) == "rank 2");
  CHECK(rank_words({2, 2, 2}, 1024) == "rank 2");  // duplicates of one rank
  std::vector<int64_t> all_but_2 = iota(0, 1023);
  all_but_2.erase(all_but_2.begin() + 2);
  CHECK(rank_words(all_but_2, 1024) == "ranks 0-1, 3-1023 (1,023 of 1,024)");
  CHECK(rank_words(iota(0, 3), 4) == "ranks 0-3 (all 4)");
  CHECK(rank_words({3, 0, 1, 1, 7, 5}, 8) == "ranks 0-1, 3, 5, 7 (5 of 8)");  // unsorted, dup
  CHECK(rank_words({0, 2}, 0) == "ranks 0, 2 (2 ranks)");  // the job's size unknown
  CHECK(rank_words({0, 2, 9, 11, 12}, 4) ==
        "ranks 0, 2, 9, 11-12 (5 ranks)");  // more than the files
  CHECK(rank_runs({}) == "");
  CHECK(rank_runs({5, 4, 3, 10, 11}) == "3-5, 10-11");
  CHECK(tlscope::views::grouped_number(4096) == "4,096");
  CHECK(tlscope::views::grouped_number(999) == "999");
  CHECK(tlscope::views::grouped_number(1234567) == "1,234,567");
}

TEST_CASE("Facts: per-process values are cut out, the rest of the text is the fact") {
  Fact a = fact_of("fn recompiled as 1/1 because ___check_obj_id(L['self'].fn, 140234567890112)");
  Fact b = fact_of("fn recompiled as 1/1 because ___check_obj_id(L['self'].fn, 139870011223344)");
  CHECK(a.key == b.key);
  CHECK(merged_text({&a, &b}) ==
        "fn recompiled as 1/1 because ___check_obj_id(L['self'].fn, "
        "<object id>)");
  // Hex addresses, temp paths and pids.
  Fact c = fact_of(
      "<function f at 0x7f3a2b4c5d60> cached in /tmp/torchinductor_ann/ab/c.py pid "
      "4123");
  Fact d = fact_of(
      "<function f at 0x7f99aa001122> cached in /tmp/torchinductor_bob/zz/q.py pid "
      "977");
  CHECK(c.key == d.key);
  CHECK(merged_text({&c, &d}) == "<function f at <address>> cached in <temp path> pid <pid>");
  CHECK(merged_text({&c, &c}) == std::string("<function f at 0x7f3a2b4c5d60> cached in "
                                             "/tmp/torchinductor_ann/ab/c.py pid 4123"));
  // One recurring guard: compile ids and expected/actual numbers become ranges.
  Fact e = fact_of("k recompiled as 0/2 because size mismatch at index 0. expected 3, actual 4");
  Fact f = fact_of("k recompiled as 0/10 because size mismatch at index 0. expected 11, actual 12");
  CHECK(e.key == f.key);
  CHECK(merged_text({&f, &e}) ==
        "k recompiled as 0/2..0/10 because size mismatch at index 0. expected 3..11, actual 4..12");
  // Small numbers elsewhere are part of the fact: another dim is another fact.
  CHECK(fact_of("size mismatch at index 0").key != fact_of("size mismatch at index 1").key);
  CHECK(fact_of("line 12: x").key != fact_of("line 14: x").key);
  // The slot marker byte in log text stays text, and never reads as a slot.
  Fact g =
      fact_of(std::string("odd \x1f"
                          "0 text 0/1"));
  CHECK(merged_text({&g, &g}) == std::string("odd \x1f"
                                             "0 text 0/1"));
}

TEST_CASE("One fact on seven ranks is one line with its ranks, costlier lines first") {
  std::string sql = tlscope::test::analysis_table_sql("findings") + R"sql(
INSERT INTO files(id, path, rank, gzip) VALUES (3, 'r0', 0, 0), (4, 'r1', 1, 0), (5, 'r2', 2, 0),
  (6, 'r3', 3, 0), (7, 'r4', 4, 0), (8, 'r5', 5, 0), (9, 'r6', 6, 0);
INSERT INTO compiles(file_id, rank, compile_id, duration_us) VALUES (4, 1, '2/0', 9000000);
)sql";
  // The same guard on seven ranks, each with its own object id.
  for (int r = 0; r < 7; ++r) {
    sql +=
        "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, frame, detail) "
        "VALUES ('recompile', 'warning', '[" +
        std::to_string(r) +
        "]', '[]', '1/1', 'fn', json_object('failed_guard', '___check_obj_id(L[''self''].fn, " +
        std::to_string(140234567890112 + 4096 * r) + ")', 'prev_compile_id', '1/0'));\n";
  }
  // Another fact on one rank, whose compile took 9 s: it leads.
  sql +=
      "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, frame, detail) VALUES "
      "('recompile', 'warning', '[1]', '[]', '2/0', 'g', json_object('failed_guard', 'tensor "
      "''x'' dtype mismatch. expected Float, actual Double', 'prev_compile_id', '1/9'));\n";
  // Two stragglers: the one the others waited longer for leads.
  sql +=
      "INSERT INTO findings(kind, severity, ranks, other_ranks, pg_name, seq, detail) VALUES "
      "('straggler', 'warning', '[3]', '[0,1,2]', 'dp', 4, '{\"op\": \"all_reduce\", "
      "\"lag_us\": 1500, \"wait_us\": 2000}'), ('straggler', 'warning', '[5]', '[0,1,2]', "
      "'dp', 9, '{\"op\": \"all_reduce\", \"lag_us\": 2500, \"wait_us\": 7000}');\n";
  Database db(fixture("views_finding_lines.db", sql));
  REQUIRE(db.ok());
  auto f = load_findings(db);
  INFO(f.error);
  REQUIRE(f.ok());
  CHECK(f->total == 10);
  CHECK(f->lines == 4);
  CHECK(f->job_ranks == 7);
  const FindingGroup* re = group_of(*f, "recompile");
  REQUIRE(re);
  CHECK(re->count == 2);
  CHECK(re->occurrences == 8);
  REQUIRE(re->rows.size() == 2);
  CHECK(re->rows[0].compile_id == "2/0");
  CHECK(re->rows[0].cost_us == Approx(9e6));
  CHECK(re->rows[0].message.rfind("rank 1: g recompiled as 2/0", 0) == 0);  // one row: as logged
  CHECK(re->rows[1].message ==
        "ranks 0-6 (all 7): fn recompiled as 1/1 because ___check_obj_id(L['self'].fn, "
        "<object id>) (guard of 1/0)");
  CHECK(re->rows[1].occurrences == 7);
  CHECK(re->rows[1].ranks == iota(0, 6));
  CHECK(re->rows[1].hint.known_cause);
  CHECK(re->rows[1].hint.meaning.find("new object") != std::string::npos);
  CHECK(re->rows[0].hint.meaning.find("dtype") != std::string::npos);
  const FindingGroup* late = group_of(*f, "straggler");
  REQUIRE(late);
  REQUIRE(late->rows.size() == 2);
  CHECK(late->rows[0].message ==
        "rank 5 arrived 2.5 ms after the others' median arrival at sequence 9 of group dp "
        "(all_reduce); ranks 0-2 (3 of 7) waited 7.0 ms in total");
  CHECK(late->rows[1].message.rfind("rank 3 arrived 1.5 ms after", 0) == 0);
  // Capped after ordering: the report's few lines are the costliest.
  auto capped = load_findings(db, 1);
  REQUIRE(group_of(*capped, "recompile"));
  CHECK(group_of(*capped, "recompile")->rows.at(0).compile_id == "2/0");
  CHECK(group_of(*capped, "recompile")->count == 2);
}

TEST_CASE("Hints: a matching known cause, else the kind's own hint, else a generic one") {
  FindingHint item = hint_for("graph_break",
                              "Unsupported Tensor.item() call with "
                              "capture_scalar_outputs=False");
  CHECK(item.known_cause);
  CHECK(item.try_this.find("capture_scalar_outputs = True") != std::string::npos);
  FindingHint dyn = hint_for("recompile",
                             "x recompiled as 0/1 because tensor 'x' size mismatch "
                             "at index 0. expected 4, actual 6 (guard of 0/0)");
  CHECK(dyn.known_cause);
  CHECK(dyn.try_this.find("mark_dynamic") != std::string::npos);
  FindingHint op = hint_for("desync", "rank 2 issued all_gather where ...\ndiffers=op");
  FindingHint size =
      hint_for("desync", "rank 2 issued all_reduce of [[4]] where ...\ndiffers=size");
  CHECK(op.known_cause);
  CHECK(size.known_cause);
  CHECK(op.meaning != size.meaning);
  FindingHint plain = hint_for("graph_break", "a reason nobody has seen");
  CHECK_FALSE(plain.known_cause);
  CHECK_FALSE(plain.meaning.empty());
  // A kind added since, with no row in the table: a hint from its kind row or its name.
  FindingHint unknown = hint_for("kind_from_the_future", "text");
  CHECK_FALSE(unknown.known_cause);
  CHECK(unknown.line().find("kind_from_the_future") != std::string::npos);
  // Every kind this build writes has a hint of its own, and every cause row names a known kind.
  for (const FindingKindInfo& k : kFindingKinds) {
    INFO(k.kind);
    FindingHint h = hint_for(k.kind, "");
    CHECK(h.line().find(std::string(k.title)) == std::string::npos);  // not the generic one
    CHECK_FALSE(h.try_this.empty());
  }
  for (const FindingCause& c : kFindingCauses) {
    INFO(c.kind << " / " << c.pattern);
    CHECK(tlscope::model::analysis::find_finding_kind(c.kind) != nullptr);
    CHECK_FALSE(c.meaning.empty());
    CHECK_FALSE(c.try_this.empty());
  }
}

TEST_CASE("multi_rank_logs: 20 recompiles on ranks 1 and 3 are one line, two failures one") {
  // Rank 1 recompiles kernel 14 times (0/1..0/14), rank 3 6 times (0/1..0/6), all on the guard
  // "tensor 'x' size mismatch at index 0" with expected n, actual n+1 (n = 2..15). Ranks 0 and 2
  // hold the same failed compile 0/0 (comp_failure.log).
  std::string path =
      tlscope::test::analysed_real_log("finding_lines_multi_rank_logs", {"multi_rank_logs"});
  CHECK(tlscope::test::query_rows(path,
                                  "SELECT count(*) FROM findings WHERE kind = "
                                  "'recompile'") == std::vector<std::string>{"20"});
  Database db(path);
  auto f = load_findings(db);
  INFO(f.error);
  REQUIRE(f.ok());
  CHECK(f->job_ranks == 4);
  const FindingGroup* re = group_of(*f, "recompile");
  REQUIRE(re);
  CHECK(re->occurrences == 20);
  REQUIRE(re->rows.size() == 1);
  CHECK(re->rows[0].message ==
        "ranks 1, 3 (2 of 4): kernel recompiled as 0/1..0/14 because tensor 'x' size mismatch at "
        "index 0. expected 2..15, actual 3..16 (guard of 0/0..0/13) (20 times)");
  CHECK(re->rows[0].hint.try_this.find("mark_dynamic") != std::string::npos);
  const FindingGroup* failed = group_of(*f, "compile_failure");
  REQUIRE(failed);
  REQUIRE(failed->rows.size() == 1);
  CHECK(failed->rows[0].ranks == std::vector<int64_t>{0, 2});
  CHECK(failed->rows[0].message.rfind("ranks 0, 2 (2 of 4): compile 0/0 of fn failed with "
                                      "BackendCompilerFailed",
                                      0) == 0);
  CHECK(failed->rows[0].hint.known_cause);
  // Divergence: one line per aspect with the same reference ranks 0 and 2 (4 rows before).
  const FindingGroup* div = group_of(*f, "rank_divergence");
  REQUIRE(div);
  CHECK(div->occurrences == 2);
  REQUIRE(div->rows.size() == 2);
  for (const FindingRow& row : div->rows) {
    INFO(row.message);
    CHECK(row.ranks == std::vector<int64_t>{1, 3});
    CHECK(row.message.find("rank 1 has ") != std::string::npos);
    CHECK(row.message.find(" and rank 3 has ") != std::string::npos);
    CHECK(row.message.find(" where ranks 0, 2 (2 of 4) have ") != std::string::npos);
    CHECK(row.hint.known_cause);
  }
  CHECK(f->total == 1 + 2 + 2 + 20);  // storm, failures, divergence, recompiles
  CHECK(f->lines == 1 + 1 + 2 + 1);
}

TEST_CASE("Real logs: every finding gets a hint and the known causes are named") {
  // comp_metrics.log breaks twice on an explicit torch._dynamo.graph_break() ("skip function
  // graph_break in file .../decorators.py"); comp_failure.log's compile fails in the backend.
  for (const char* log : {"comp_metrics.log", "comp_failure.log", "multi_rank_schedule"}) {
    INFO(log);
    std::string path = tlscope::test::analysed_real_log(
        std::string("finding_hints_") + (log[0] == 'm' ? "schedule" : log), {log});
    Database db(path);
    auto f = load_findings(db);
    INFO(f.error);
    REQUIRE(f.ok());
    REQUIRE_FALSE(f->groups.empty());
    for (const FindingGroup& g : f->groups) {
      for (const FindingRow& row : g.rows) {
        INFO(row.message);
        CHECK(row.hint.known_cause);
        CHECK_FALSE(row.hint.try_this.empty());
      }
    }
  }
}

TEST_CASE("Rank lists read back from the findings' JSON arrays") {
  using tlscope::views::ranks_from_json;
  CHECK(ranks_from_json("[0,2]") == std::vector<int64_t>{0, 2});
  CHECK(ranks_from_json("[]").empty());
  CHECK(ranks_from_json("[ 3, 1023 ]") == std::vector<int64_t>{3, 1023});
  CHECK(ranks_from_json("not json").empty());
}
