// Record spellings of PyTorch versions the real logs in shared/ do not cover, from
// fixtures/torch_versions.log (written by fixtures/torch_versions_log.py in the form
// torch/_logging/_internal.py's trace_structured writes): compiled autograd's compile ids, the
// lazy backward compile's metrics in their 2.3 and 2.6+ forms, runtime metrics with and without a
// compile context, 2024 metrics records without a compile id of their own, and the symbolic-shape
// and fake-kernel records.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/analysis_harness.hpp"
#include "common/scratch_files.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/compile_row.hpp"
#include "tlscope/views/database.hpp"

using tlscope::test::AnalyzedDb;

namespace {

const std::string kTorchVersionsLog = std::string(TLSCOPE_FIXTURES) + "/torch_versions.log";

// The metrics kinds a compile's page lists, in log order.
std::vector<std::string> metrics_on_page(const std::string& db_path, const std::string& cid) {
  tlscope::views::Database db(db_path);
  REQUIRE(db.ok());
  auto rows = tlscope::views::load_compile_rows(db);
  REQUIRE(rows.ok());
  tlscope::views::CompileDetailReader reader(db);
  for (const tlscope::views::CompileRow& c : *rows) {
    if (c.compile_id != cid) continue;
    auto detail = reader.read(c);
    REQUIRE(detail.ok());
    std::vector<std::string> kinds;
    for (const auto& m : detail->metrics) kinds.push_back(m.kind);
    return kinds;
  }
  FAIL("no compile " << cid);
  return {};
}

}  // namespace

TEST_CASE("torch_versions.log: every record is read and filed under its compile") {
  AnalyzedDb db("torch_versions_files", {kTorchVersionsLog});
  REQUIRE(db.ingest_problems().empty());
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(*) FROM ingest_errors") == "0");
  // Compiled autograd: its graphs !0 and !1 outside any frame, the frames compiled inside them
  // (!0/1/0, and !1/1/1 after a restart), next to the plain frames; none folded into another.
  CHECK(db.rows("SELECT compile_id || ' ' || COALESCE(compiled_autograd_id, '-') || ' ' || "
                "COALESCE(frame_id, '-') || ' ' || attempts || ' ' || status FROM compiles "
                "ORDER BY first_event_id") ==
        std::vector<std::string>{"0/0 - 0 1 ok", "!0 0 - 1 no_metrics", "!0/1/0 0 1 1 ok",
                                 "!1 1 - 1 no_metrics", "!1/1/1 1 1 2 restarted",
                                 "2/0 - 2 1 failed", "3/0 - 3 2 restarted"});
  CHECK(db.rows("SELECT name FROM compile_directory WHERE compile_id = '!0'") ==
        std::vector<std::string>{"compiled_autograd_graph"});
  CHECK(db.rows("SELECT name || ':' || category FROM compile_directory WHERE compile_id = '!1' "
                "ORDER BY event_id") ==
        std::vector<std::string>{"compiled_autograd_compile_reasons:artifact",
                                 "compiled_autograd_graph:graph"});
  CHECK(db.rows("SELECT compile_id || ' <- ' || prev_compile_id FROM recompiles") ==
        std::vector<std::string>{"!1/1/1 <- !0/1/0"});
  // Compile 0/0's metrics: the forward record, the lazy backward compile's in both forms (the
  // 2.6+ dataclass and the older five fields), runtime records with and without a compile
  // context of their own, and 2.3's aot_autograd_backward_compilation_metrics.
  CHECK(
      db.rows("SELECT kind FROM compilation_metrics WHERE compile_id = '0/0' ORDER BY event_id") ==
      std::vector<std::string>{"compilation_metrics", "bwd_compilation_metrics",
                               "compilation_metrics_runtime", "bwd_compilation_metrics",
                               "aot_autograd_backward_compilation_metrics",
                               "compilation_metrics_runtime"});
  // The symbolic-shape and fake-kernel records of compile 2/0.
  CHECK(db.scalar("SELECT count(*) FROM shape_symbols WHERE compile_id = '2/0'") == "1");
  CHECK(db.scalar("SELECT count(*) FROM shape_specializations WHERE compile_id = '2/0'") == "1");
  CHECK(db.rows("SELECT kind FROM shape_guards WHERE compile_id = '2/0' ORDER BY id") ==
        std::vector<std::string>{"guard_added_fast", "guard_added"});
  CHECK(db.rows("SELECT kind FROM export_issues WHERE compile_id = '2/0' ORDER BY id") ==
        std::vector<std::string>{"missing_fake_kernel", "mismatched_fake_kernel"});
  // The header written through the TORCH_LOGS formatter ("[rank0]:I0304 ...") is read too.
  CHECK(db.scalar("SELECT compile_id FROM artifacts WHERE name = 'fx_graph_cache_miss'") == "0/0");
}

TEST_CASE("A failed lazy backward compile logged by PyTorch 2.3 is a failure of its compile") {
  AnalyzedDb db("torch_versions_failures", {kTorchVersionsLog});
  REQUIRE(db.report().ok);
  // {"aot_autograd_backward_compilation_metrics": {"start_time": ..., "elapsed_time": 0.4,
  // "fail_type": "InductorError", "fail_reason": "LoweringException: ..."}} under 0/0, whose
  // record names no frame: the frame is the forward compile's (train).
  CHECK(
      db.rows("SELECT compile_id || ' ' || frame || ' ' || fail_type FROM failures ORDER BY id") ==
      std::vector<std::string>{"2/0 train_step RuntimeError", "0/0 train InductorError"});
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind = 'compile_failure'") == "2");
}

TEST_CASE("A metrics record logged at a later attempt is listed on its compile's page") {
  // A 2024 record carries no compile_id of its own: its id is the envelope's, with the attempt
  // it was logged at after the graph break ("3/0_1"); it is compile 3/0's.
  {
    AnalyzedDb db("torch_versions_attempt_metrics", {kTorchVersionsLog});
    REQUIRE(db.report().ok);
    REQUIRE(db.scalar("SELECT compile_id FROM compilation_metrics WHERE co_name = 'eval_step'") ==
            "3/0_1");
    CHECK(metrics_on_page(db.path(), "3/0") == std::vector<std::string>{"compilation_metrics"});
  }
  // The same in a real log: comp_metrics.log logs compile 0/0's record at attempt 1.
  AnalyzedDb real("comp_metrics_attempt_metrics",
                  {std::string(TLSCOPE_SHARED_LOGS) + "/comp_metrics.log"});
  REQUIRE(real.report().ok);
  CHECK(metrics_on_page(real.path(), "0/0") == std::vector<std::string>{"compilation_metrics"});
  CHECK(metrics_on_page(real.path(), "1/0") == std::vector<std::string>{"compilation_metrics"});
  CHECK(metrics_on_page(real.path(), "2/0") == std::vector<std::string>{"compilation_metrics"});
}

TEST_CASE("A record of a kind no section reads is listed under its compile, as written") {
  // A kind a later PyTorch may write without a payload (name made up: every real one is read
  // somewhere); appended to the fixture under compile 2/0, at attempt 1.
  std::string log = tlscope::test::slurp(kTorchVersionsLog);
  log +=
      "V0304 11:00:00.000000 4242 torch/_dynamo/convert_frame.py:1000] {\"dynamo_future_record\":"
      " {\"note\": \"<b>kept</b>\"}, \"frame_id\": 2, \"frame_compile_id\": 0, \"attempt\": 1}\n";
  std::filesystem::path dir = std::filesystem::path(TLSCOPE_BINARY_DIR) / "test-analysis";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "torch_versions_future_kind.log").string();
  tlscope::test::spit(path, log);
  AnalyzedDb db("torch_versions_future_kind", {path});
  REQUIRE(db.report().ok);
  tlscope::views::Database vdb(db.path());
  REQUIRE(vdb.ok());
  auto rows = tlscope::views::load_compile_rows(vdb);
  REQUIRE(rows.ok());
  tlscope::views::CompileDetailReader reader(vdb);
  for (const tlscope::views::CompileRow& c : *rows) {
    INFO(c.compile_id);
    auto detail = reader.read(c);
    REQUIRE(detail.ok());
    if (c.compile_id != "2/0") {
      // Every other record of the fixture is read by some section: none is listed here.
      CHECK(detail->other_records.empty());
      continue;
    }
    REQUIRE(detail->other_records.size() == 1);
    const tlscope::views::OtherRecord& r = detail->other_records[0];
    CHECK(r.kind == "dynamo_future_record");
    CHECK(r.metadata == "{\"note\": \"<b>kept</b>\"}");
    CHECK(r.attempt == 1);
    CHECK(r.line == static_cast<int64_t>(std::count(log.begin(), log.end(), '\n')));
  }
}
