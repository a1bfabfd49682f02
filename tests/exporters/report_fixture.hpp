// A small two-rank database for the report tests, built with the analysis tests' FixtureDb:
// compiles with graphs and guards, graph breaks, a recompile, a failure, cache events, tensors,
// chromium phases and collectives with a desync. Log-derived strings are hostile on purpose.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>

#include "analysis/fixture_db.hpp"
#include "tlscope/exporters/report.hpp"

namespace tlscope::test {

// Strings a log could carry that would run script if a page inserted them unescaped.
inline const std::string kHostileScript = "<script>document.title='PWNED'</script>";
inline const std::string kHostileImg = "\"><img src=x onerror=\"document.body.dataset.pwned=1\">";

inline void collective(FixtureDb& db, int64_t rank, int64_t seq, const std::string& op,
                       double created, double completed) {
  char buf[900];
  std::snprintf(buf, sizeof buf,
                "{\"pg_name\": \"0\", \"pg_desc\": \"dp\", \"pg_ranks\": [0, 1], \"pg_size\": 2, "
                "\"collective_seq_id\": %lld, \"op\": \"%s\", \"input_sizes\": [[8]], "
                "\"output_sizes\": [[%d]], \"input_dtypes\": [\"float32\"], "
                "\"output_dtypes\": [\"float32\"], \"bytes\": 32, \"state\": \"completed\", "
                "\"time_created_us\": %.1f, \"time_started_us\": %.1f, "
                "\"time_completed_us\": %.1f}",
                static_cast<long long>(seq), op.c_str(), op == "all_gather" ? 16 : 8, created,
                created, completed);
  db.artifact(Ctx{}, "collective_op", buf, "json", rank);
}

// Writes the fixture to `path` (replacing it).
inline void write_report_fixture(const std::string& path) {
  FixtureDb db;
  for (int64_t rank = 0; rank < 2; ++rank) {
    db.add_file("dedicated_log_torch_trace_rank_" + std::to_string(rank) + ".log", rank);
    // Compile 0/0: a graph with a hostile node name, guards, generated code, a graph break.
    db.dynamo_start(ctx(0, 0), {{"train.py", 10, "<module>"}, {"model.py", 42, "forward"}});
    db.tensor(ctx(0, 0), 0, 0, "L['x']", "[4, 8]", "[8, 1]");
    db.tensor(ctx(0, 0), 0, 1, "L['w']", "[8, 3]", "[1, 8]");
    db.event("dynamo_output_graph", ctx(0, 0), "{\"sizes\": {}}",
             "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        # " +
                 kHostileScript + "\n        return (x + 1,)",
             rank);
    db.event("dynamo_guards", ctx(0, 0), "{}", "[{\"code\": \"check_tensor(L['x'])\"}]", rank);
    db.event("inductor_output_code", ctx(0, 0), "{\"filename\": \"/tmp/k.py\"}",
             "def call(args):\n    buf0 = 'a \"quoted\" string'\n    return (buf0,)", rank);
    db.artifact(ctx(0, 0), "dynamo_graph_break_reason",
                "Graph break in user code at model.py:43\nGraph Break Reason: call to " +
                    kHostileImg + "\nUser code traceback:\n  model.py:43",
                "string", rank);
    db.artifact(ctx(0, 0), "fx_graph_cache_miss", "{}", "json", rank);
    db.metrics(ctx(0, 0, 1), "forward", ", graph_op_count, duration_us, restart_reasons",
               ", 3, 1500, '[]'");
    // Compile 0/1: recompile because x changed size.
    db.artifact(ctx(0, 1), "recompile_reasons",
                "[\"0/0: tensor 'L[\\\"x\\\"]' size mismatch at index 0. expected 4, actual 8\"]",
                "json", rank);
    db.dynamo_start(ctx(0, 1), {{"train.py", 10, "<module>"}, {"model.py", 42, "forward"}});
    db.tensor(ctx(0, 1), 0, 0, "L['x']", "[8, 8]", "[8, 1]");
    db.tensor(ctx(0, 1), 0, 1, "L['img']", "[2, 3, 4, 5]", "[60, 1, 15, 3]");
    db.artifact(ctx(0, 1), "fx_graph_cache_hit", "{}", "json", rank);
    db.metrics(ctx(0, 1), "forward", ", graph_op_count, duration_us, restart_reasons",
               ", 3, 900, '[]'");
    // Compile 1/0 fails on rank 1 only (so the ranks diverge).
    db.dynamo_start(ctx(1, 0), {{"train.py", 12, "<module>"}, {"model.py", 50, "loss"}});
    if (rank == 1) {
      db.metrics(ctx(1, 0), "loss",
                 ", fail_type, fail_reason, fail_user_frame_filename, fail_user_frame_lineno",
                 ", 'BackendCompilerFailed', 'broken " + FixtureDb::q(kHostileScript).substr(1) +
                     ", 'model.py', 51");
    } else {
      db.metrics(ctx(1, 0), "loss", ", graph_op_count, duration_us, restart_reasons",
                 ", 2, 700, '[]'");
    }
    // Chromium phases: dynamo enclosing backend_compile.
    db.exec("INSERT INTO chromium_event_rows(event_id, file_id, rank, name, cat, ph, ts, dur, "
            "pid, tid, compile_id) VALUES (1, " + std::to_string(rank + 1) + ", " +
            std::to_string(rank) + ", 'dynamo', 'dynamo_timed', 'B', 1000, 5000, 0, 0, '0/0'), "
            "(1, " + std::to_string(rank + 1) + ", " + std::to_string(rank) +
            ", 'backend_compile', 'dynamo_timed', 'B', 2000, 2500, 0, 0, '0/0')");
    // Collectives: seq 1, 2 agree; at seq 3 rank 1 issues all_gather instead of all_reduce.
    for (int64_t seq = 1; seq <= 3; ++seq) {
      double t = 1e6 * static_cast<double>(seq) + 100.0 * static_cast<double>(rank);
      collective(db, rank, seq, seq == 3 && rank == 1 ? "all_gather" : "all_reduce", t, t + 800);
    }
  }
  // Logged values of a 64x64 tensor (value = flat index / 2) under a hostile name: drawn
  // summarised, its name escaped everywhere.
  std::string values = "{\"name\": " + FixtureDb::q_json("big" + kHostileScript) +
                       ", \"shape\": [64, 64], \"dtype\": \"float32\", \"values\": [";
  for (int i = 0; i < 64 * 64; ++i) values += (i ? ", " : "") + std::to_string(i * 0.5);
  db.artifact(Ctx{}, "tensor_values", values + "]}", "json", 0);
  std::filesystem::remove(path);
  db.exec("VACUUM INTO " + FixtureDb::q(path));
}

// The fixture database and its report under <build>/test-artifacts/report-fixture-<name>. Each
// test case writes its own copy (ctest may run test cases of one file in parallel).
struct FixtureReport {
  std::filesystem::path root;
  std::string db, dir;
  tlscope::exporters::ReportResult result;
};

inline FixtureReport fixture_report(const std::string& name) {
  FixtureReport f;
  f.root = std::filesystem::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / ("report-fixture-" + name);
  std::filesystem::remove_all(f.root);
  std::filesystem::create_directories(f.root);
  f.db = (f.root / "fixture.db").string();
  f.dir = (f.root / "site").string();
  write_report_fixture(f.db);
  tlscope::exporters::ReportOptions o;
  o.db_path = f.db;
  o.out_dir = f.dir;
  f.result = tlscope::exporters::write_report(o);
  return f;
}

}  // namespace tlscope::test
