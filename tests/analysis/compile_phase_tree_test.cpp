// The compile phase tree (compile_phase_tree) against the chromium events it comes from, on
// simple.log and on sample runtime runs: every phase is a chromium span with its name and time,
// every compile span is a phase, a child lies inside its parent and children never add up to
// more than it, and the spans compilation_metrics also times agree with its cumulative times.
// The views' run total and split read the same numbers.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "analysis/analysis_harness.hpp"
#include "tlscope/views/compile_phases.hpp"

using tlscope::test::AnalyzedDb;

namespace {

namespace fs = std::filesystem;

// A float µs edge (B and E of two spans at one instant) and PyTorch's whole-µs metrics.
constexpr const char* kEdge = "0.01";

// Checks the tree's invariants; returns how many metric times were compared.
int64_t check_tree(const AnalyzedDb& db) {
  INFO(db.path());
  REQUIRE(db.report().ok);
  CHECK(db.scalar("SELECT count(*) > 0 FROM compile_phase_tree") == "1");
  // Each phase is its chromium span, name and time.
  CHECK(db.scalar("SELECT count(*) FROM compile_phase_tree t LEFT JOIN chromium_events c ON c.id "
                  "= t.chromium_id WHERE c.id IS NULL OR c.name <> t.name OR c.ts <> t.start_us "
                  "OR c.dur <> t.duration_us") == "0");
  // Every span that names a compile is a phase of that compile.
  CHECK(db.scalar("SELECT count(*) FROM chromium_events c WHERE c.dur IS NOT NULL AND "
                  "c.compile_id IS NOT NULL AND c.compile_id <> 'None' AND NOT EXISTS (SELECT 1 "
                  "FROM compile_phase_tree t WHERE t.chromium_id = c.id)") == "0");
  // A child lies inside its parent, of the same compile, one level down.
  CHECK(db.scalar(std::string("SELECT count(*) FROM compile_phase_tree c JOIN "
                              "compile_phase_tree p ON p.id = c.parent_id WHERE c.start_us < "
                              "p.start_us - ") +
                  kEdge + " OR c.start_us + c.duration_us > p.start_us + p.duration_us + " + kEdge +
                  " OR c.compile_id <> p.compile_id OR c.depth <> p.depth + 1") == "0");
  // The sum of the children is at most the parent; self time is the difference.
  CHECK(db.scalar(std::string("SELECT count(*) FROM compile_phase_tree p WHERE (SELECT "
                              "total(c.duration_us) FROM compile_phase_tree c WHERE c.parent_id "
                              "= p.id) > p.duration_us + ") +
                  kEdge +
                  " OR abs(p.self_us + (SELECT total(c.duration_us) FROM "
                  "compile_phase_tree c WHERE c.parent_id = p.id) - p.duration_us) > " +
                  kEdge) == "0");
  // compilation_metrics' cumulative times are its spans' totals (whole µs, one per span).
  const std::string compare =
      "SELECT count(*), total(abs(t.s - m.v) > t.n + 1) FROM (SELECT file_id, compile_id, name, "
      "total(duration_us) AS s, count(*) AS n FROM compile_phase_tree GROUP BY file_id, "
      "compile_id, name) t JOIN (SELECT file_id, compile_id, 'entire_frame_compile' AS name, "
      "dynamo_cumulative_compile_time_us AS v FROM compilation_metrics WHERE kind = "
      "'compilation_metrics' UNION ALL SELECT file_id, compile_id, 'backend_compile', "
      "aot_autograd_cumulative_compile_time_us FROM compilation_metrics WHERE kind = "
      "'compilation_metrics' UNION ALL SELECT file_id, compile_id, 'inductor_compile', "
      "inductor_cumulative_compile_time_us FROM compilation_metrics WHERE kind = "
      "'compilation_metrics') m ON m.file_id = t.file_id AND m.compile_id = t.compile_id AND "
      "m.name = t.name WHERE m.v IS NOT NULL";
  const std::vector<std::string> r = db.rows(compare);
  REQUIRE(r.size() == 1);
  const std::string compared = r[0].substr(0, r[0].find('|'));
  CHECK(r[0].substr(r[0].find('|') + 1) == "0.0");
  return std::stoll(compared);
}

std::string sample_run(const std::string& scenario) {
  const std::string binary = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(binary));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / ("phase-tree-" + scenario);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string cmd =
      binary + " " + scenario + " --out " + dir.string() + " > " + (dir / "run.txt").string();
  REQUIRE(std::system(cmd.c_str()) == 0);
  return dir.string();
}

}  // namespace

TEST_CASE("phase tree: simple.log's chromium phases nest as the events say") {
  AnalyzedDb db("phase_tree_simple", {std::string(TLSCOPE_SHARED_LOGS) + "/simple.log"});
  CHECK(check_tree(db) == 3);  // entire_frame_compile, backend_compile, inductor_compile of 0/0
  // The nesting read off the log: dynamo > entire_frame_compile > backend_compile >
  // create_aot_dispatcher_function > fw_compiler_base > inductor_compile > compile_to_fn >
  // code_gen > PyCodeCache.load_by_key_path > async_compile.wait.
  CHECK(db.scalar("SELECT path FROM compile_phase_tree WHERE name = 'async_compile.wait'") ==
        "dynamo > entire_frame_compile > backend_compile > create_aot_dispatcher_function > "
        "compile_fx.<locals>.fw_compiler_base > inductor_compile > GraphLowering.compile_to_fn > "
        "code_gen > PyCodeCache.load_by_key_path > async_compile.wait");
  CHECK(db.scalar("SELECT group_concat(name, ',') FROM (SELECT name FROM compile_phase_tree "
                  "WHERE parent_id = (SELECT id FROM compile_phase_tree WHERE name = "
                  "'inductor_compile') ORDER BY start_us)") ==
        "_recursive_post_grad_passes,GraphLowering.run,GraphLowering.compile_to_fn,"
        "TritonBundler.collect");
  // compile_file spans name no compile and lie outside one: not phases.
  CHECK(db.scalar("SELECT count(*) FROM compile_phase_tree WHERE name = 'compile_file'") == "0");

  tlscope::views::Database vdb(db.path());
  REQUIRE(vdb.ok());
  auto phases = tlscope::views::load_compile_phases(vdb);
  REQUIRE(phases.ok());
  REQUIRE_FALSE(phases->run.empty());
  CHECK(phases->run[0].name == "dynamo");
  CHECK(phases->run[0].parent.empty());
  CHECK(phases->run[1].name == "entire_frame_compile");
  CHECK(phases->run[1].parent == "dynamo");
  CHECK(phases->run[0].seconds == Approx(1.664615).epsilon(1e-6));
  REQUIRE(phases->compiles.size() == 1);
  CHECK(phases->compiles[0].compile_id == "0/0");
  CHECK(phases->top.front().name == "dynamo");
  CHECK(phases->top.front().compiles.front().compile_id == "0/0");
  const auto& split = phases->split;
  CHECK_FALSE(split.from_metrics);
  CHECK(split.compiles == 1);
  CHECK(split.total_s == Approx(1.664615).epsilon(1e-6));
  CHECK(split.backend_s == Approx(1.30709025).epsilon(1e-6));
  CHECK(split.tracing_s == Approx(split.total_s - split.backend_s));
  // inductor_codecache_torch_key is the one cache phase of the log.
  CHECK(split.cache_s == Approx(0.07361775).epsilon(1e-6));
  CHECK_FALSE(split.cache_saved_s);
  CHECK(tlscope::views::compile_time_words(split) ==
        "compile time 1.66 s over 1 compile: Dynamo tracing 0.36 s, backend 1.31 s, cache 0.07 s");
  // The comparison table: one row per path, depth first.
  auto totals = tlscope::views::load_phase_totals(vdb);
  REQUIRE(totals.ok());
  CHECK(totals->size() == 21);
  CHECK(totals->front().path == "dynamo");
}

TEST_CASE("phase tree: a sample runtime run's phases nest and agree with its metrics") {
  for (const char* scenario : {"mlp", "recompiles", "vllm-piecewise"}) {
    DYNAMIC_SECTION(scenario) {
      AnalyzedDb db(std::string("phase_tree_sample_") + scenario, {sample_run(scenario)});
      const int64_t compared = check_tree(db);
      CHECK(compared >= 3);
      // compile_attempt_0 > bytecode_tracing, as the runtime writes them.
      CHECK(db.scalar("SELECT count(*) > 0 FROM compile_phase_tree WHERE path = 'dynamo > "
                      "entire_frame_compile > compile_attempt_0 > bytecode_tracing'") == "1");
    }
  }
}
