// The analysis with its ingest-only passes on a second connection (concurrent_passes.cpp) against
// the serial one, on real PyTorch logs: every table row for row with its rowids, on both ways the
// second connection reads the file (a WAL reader for `tlscope analyze`; an immutable reader of
// the one command's unpublished file, journal off and exclusively locked), and the same error
// when a pass fails. The size threshold is set to 0 or to never, so small logs take either path.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "common/table_dump.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/sqlite.hpp"

namespace fs = std::filesystem;
using tlscope::model::analysis::AnalysisOptions;
using tlscope::model::analysis::AnalysisReport;

namespace {

const AnalysisOptions kConcurrent{0};
const AnalysisOptions kSerial{std::numeric_limits<int64_t>::max()};

std::string db_path(const std::string& name) {
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / "concurrent";
  fs::create_directories(dir);
  std::string path = (dir / (name + ".db")).string();
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
  return path;
}

std::vector<std::string> inputs(const std::string& name) {
  return {std::string(TLSCOPE_SHARED_LOGS) + "/" + name};
}

// Ingests with --no-analyze, then analyses as `tlscope analyze` does (analyze_database).
AnalysisReport ingest_then_analyze(const std::string& path, const std::vector<std::string>& logs,
                                   const AnalysisOptions& options) {
  auto ingested = tlscope::model::ingest(path, logs);
  REQUIRE(ingested.problems.empty());
  return tlscope::model::analysis::analyze_database(path, options);
}

// The one command's way: the analysis on the ingest's own connection before publication.
AnalysisReport analyze_before_publish(const std::string& path, const std::vector<std::string>& logs,
                                      const AnalysisOptions& options) {
  AnalysisReport report;
  tlscope::model::IngestOptions ingest_options;
  ingest_options.before_publish = [&](tlscope::model::Connection& db,
                                      const tlscope::model::IngestResult&) {
    report = tlscope::model::analysis::analyze(db.handle(), options);
  };
  auto ingested = tlscope::model::ingest(path, logs, ingest_options);
  REQUIRE(ingested.problems.empty());
  return report;
}

void check_same_tables(const std::string& serial, const std::string& concurrent) {
  auto a = tlscope::test::dump_tables(serial);
  auto b = tlscope::test::dump_tables(concurrent);
  CHECK(tlscope::test::first_difference(a, b) == "");
  CHECK(a.size() == b.size());
}

}  // namespace

TEST_CASE("concurrent analysis: every table as the serial one writes it, after an ingest") {
  // Logs whose beside passes have rows: provenance (jit, aot), symbolic shapes (export),
  // collective parity (multi_rank_schedule), and the four ranks of multi_rank_logs.
  for (const char* log : {"inductor_provenance_jit_log.txt", "inductor_provenance_aot_log.txt",
                          "export.log", "multi_rank_schedule", "multi_rank_logs"}) {
    INFO(log);
    const std::string name = fs::path(log).stem().string();
    // Characters a URI would misread, in the name the second connection attaches by.
    const std::string serial = db_path(name + "-serial"), concurrent = db_path(name + "-wal ?#%41");
    AnalysisReport s = ingest_then_analyze(serial, inputs(log), kSerial);
    AnalysisReport c = ingest_then_analyze(concurrent, inputs(log), kConcurrent);
    INFO(s.error << c.error);
    REQUIRE(s.ok);
    REQUIRE(c.ok);
    CHECK_FALSE(s.concurrent);
    CHECK(c.concurrent);
    CHECK(c.table_rows == s.table_rows);
    check_same_tables(serial, concurrent);
  }
  // The beside passes did write rows here (else the comparison above proves little).
  AnalysisReport jit = ingest_then_analyze(db_path("jit-rows"),
                                           inputs("inductor_provenance_jit_log.txt"), kConcurrent);
  int64_t provenance_rows = 0;
  for (const auto& [table, rows] : jit.table_rows)
    if (table.rfind("provenance_", 0) == 0) provenance_rows += rows;
  CHECK(provenance_rows > 0);
}

TEST_CASE("concurrent analysis: the one command's unpublished file, read immutable") {
  for (const char* log : {"inductor_provenance_jit_log.txt", "export.log", "multi_rank_logs"}) {
    INFO(log);
    const std::string name = fs::path(log).stem().string();
    const std::string serial = db_path(name + "-publish-serial");
    const std::string concurrent = db_path(name + "-publish-concurrent ?#%41");
    AnalysisReport s = analyze_before_publish(serial, inputs(log), kSerial);
    AnalysisReport c = analyze_before_publish(concurrent, inputs(log), kConcurrent);
    INFO(s.error << c.error);
    REQUIRE(s.ok);
    REQUIRE(c.ok);
    CHECK_FALSE(s.concurrent);
    CHECK(c.concurrent);
    check_same_tables(serial, concurrent);
  }
}

TEST_CASE(
    "concurrent analysis: a failing pass is named as the serial run names it, and the "
    "earlier analysis stays") {
  const std::string serial = db_path("broken-serial"), concurrent = db_path("broken-concurrent");
  const auto logs = inputs("inductor_provenance_jit_log.txt");
  REQUIRE(ingest_then_analyze(serial, logs, kSerial).ok);
  REQUIRE(ingest_then_analyze(concurrent, logs, kSerial).ok);
  const auto before = tlscope::test::dump_tables(concurrent);
  // artifacts is read by passes on both connections: graph_breaks here, provenance beside. A
  // serial run stops at graph_breaks, the first in the pass order; so must the concurrent one.
  for (const std::string& path : {serial, concurrent}) {
    tlscope::model::Connection db(path, tlscope::model::OpenMode::kReadWrite);
    db.exec("ALTER TABLE artifacts RENAME TO artifacts_gone; CREATE TABLE artifacts(id)");
  }
  const auto broken = tlscope::test::dump_tables(concurrent);
  AnalysisReport s = tlscope::model::analysis::analyze_database(serial, kSerial);
  AnalysisReport c = tlscope::model::analysis::analyze_database(concurrent, kConcurrent);
  CHECK_FALSE(s.ok);
  CHECK_FALSE(c.ok);
  CHECK(c.concurrent);
  CHECK(s.error.rfind("analysis pass '", 0) == 0);
  CHECK(c.error == s.error);
  // Rolled back: the earlier analysis is there as it was (the renamed table aside).
  CHECK(tlscope::test::first_difference(tlscope::test::dump_tables(concurrent), broken) == "");
  CHECK(before.at("provenance_graphs") == broken.at("provenance_graphs"));
}
