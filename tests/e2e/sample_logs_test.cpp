// The sample runtime's logs through the real tlscope binary: every scenario must ingest under
// --strict with no input error, one event row per envelope line, and findings in the summary.
// The runtime and tlscope share no code, so this is the independent-reader check from tlscope's
// side (tests/samples has the runtime's own one).
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

namespace {

const std::string kSampleRuntime =
    std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";

std::vector<std::string> rank_logs(const e2e::fs::path& dir) {
  std::vector<std::string> logs;
  for (const auto& entry : e2e::fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".log") logs.push_back(entry.path().string());
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

}  // namespace

TEST_CASE("every sample scenario ingests under --strict with no input error") {
  auto scenario =
      GENERATE(as<std::string>{}, "mlp", "graph-breaks", "recompiles", "dynamic-shapes",
               "compile-failure", "ddp", "ddp-compiled", "mesh-2d", "desync", "straggler", "hang");
  INFO("scenario " << scenario);
  auto dir = e2e::scratch("sample_" + scenario);
  std::string cmd = e2e::q(kSampleRuntime) + " " + scenario + " --out " +
                    e2e::q((dir / "logs").string()) + " --steps 3 >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  auto logs = rank_logs(dir / "logs");
  REQUIRE_FALSE(logs.empty());

  auto db_path = (dir / "run.db").string();
  auto r = e2e::run_tlscope(
      dir, "ingest --strict " + e2e::q((dir / "logs").string()) + " --db " + e2e::q(db_path));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);

  tlscope::model::Connection db(db_path, tlscope::model::OpenMode::kReadOnly);
  CHECK(e2e::scalar(db, "SELECT count(*) FROM ingest_errors") == 0);
  CHECK(e2e::scalar(db, "SELECT count(*) FROM files") == static_cast<int64_t>(logs.size()));
  for (const auto& log : logs) {
    INFO(log);
    tlscope::model::Statement s = db.prepare("SELECT id, lines FROM files WHERE path = ?");
    s.bind_static(1, log);
    REQUIRE(s.step());
    CHECK(s.int64(1) == e2e::line_count(log));
    CHECK(e2e::db_kinds(db, s.int64(0)) == e2e::envelope_kinds(log));
  }
  // ingest ran the analyses: summary prints findings, and a faulty scenario has some.
  auto summary = e2e::run_tlscope(dir, "summary " + e2e::q(db_path));
  REQUIRE(summary.exit_code == 0);
  CHECK(summary.out.find("Findings") != std::string::npos);
  if (scenario == "desync" || scenario == "hang" || scenario == "straggler" ||
      scenario == "compile-failure") {
    CHECK(e2e::scalar(db,
                      "SELECT count(*) FROM findings WHERE severity = 'error' OR "
                      "severity = 'warning'") > 0);
  }
  if (scenario == "mlp") {
    CHECK(e2e::scalar(db, "SELECT count(*) FROM findings WHERE severity = 'error'") == 0);
  }
}
