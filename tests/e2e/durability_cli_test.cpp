// What the commands say about databases that are not whole: not a database at all, damaged,
// holding an incomplete file (a cut .gz), or analysed before the last files came in.
#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace e2e;
using tlscope::model::Connection;
using tlscope::model::OpenMode;

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `simple.log` gzipped, whole.
std::string gzipped_simple(const fs::path& dir) {
  fs::path gz = dir / "whole.gz";
  std::string cmd = "gzip -c " + q(kLogs + "/simple.log") + " > " + q(gz.string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  return slurp(gz);
}

}  // namespace

TEST_CASE("analyze on a file that is not a database exits 2 with a message, never aborts") {
  fs::path dir = scratch("analyze_not_db");
  fs::path fake = dir / "passwd.db";
  tlscope::test::spit(fake, "root:x:0:0:root:/root:/bin/bash\n");
  RunResult r = run_tlscope(dir, "analyze " + q(fake.string()));
  CHECK(r.exit_code == 2);
  CHECK(has(r.err, fake.string()));
  CHECK(has(r.err, "not a tlscope database"));
  CHECK_FALSE(has(r.err, "terminate called"));
  CHECK(slurp(fake) == "root:x:0:0:root:/root:/bin/bash\n");
}

TEST_CASE("no command lets an exception end the process on a non-database") {
  fs::path dir = scratch("text_as_db");
  std::string fake = (dir / "x.db").string();
  tlscope::test::spit(fake, "this is a text file, not SQLite\n");
  for (std::string command :
       {"summary " + q(fake), "analyze " + q(fake), "export chrome-trace " + q(fake) + " -o t.json",
        "ingest --db " + q(fake) + " " + q(kLogs + "/simple.log")}) {
    INFO(command);
    RunResult r = run_tlscope(dir, command);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "not a tlscope database"));
    CHECK_FALSE(has(r.err, "terminate called"));
  }
}

TEST_CASE("a damaged database: every command says so and how it most likely happened") {
  fs::path dir = scratch("damaged");
  std::string db = (dir / "d.db").string();
  REQUIRE(
      run_tlscope(dir, "ingest " + q(kLogs + "/multi_rank_logs") + " --db " + q(db)).exit_code ==
      0);
  fs::resize_file(db, fs::file_size(db) / 2);
  for (std::string command : {"summary " + q(db), "analyze " + q(db),
                              "report " + q(db) + " -o " + q((dir / "out").string()),
                              "ingest --db " + q(db) + " " + q(kLogs + "/simple.log")}) {
    INFO(command);
    RunResult r = run_tlscope(dir, command);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, "malformed"));
    CHECK(has(r.err, "killed"));
    CHECK_FALSE(has(r.err, "terminate called"));
  }
}

TEST_CASE("a cut .gz then the whole one: the whole replaces the cut, 76 events not 141") {
  fs::path dir = scratch("cut_gz");
  std::string whole = gzipped_simple(dir);
  std::string gz = (dir / "trace.log.gz").string(), db = (dir / "t.db").string();
  tlscope::test::spit(gz, whole.substr(0, whole.size() / 2));  // the log still being written
  RunResult cut = run_tlscope(dir, "ingest " + q(gz) + " --db " + q(db));
  CHECK(cut.exit_code == 2);
  CHECK(has(cut.err, "reading stopped early"));

  // Flagged wherever the database is read: summary, report's terminal output and index.html.
  RunResult summary = run_tlscope(dir, "summary " + q(db));
  CHECK(has(summary.out, "trace.log.gz is INCOMPLETE"));
  fs::path out = dir / "report";
  RunResult report = run_tlscope(dir, "report " + q(db) + " -o " + q(out.string()));
  CHECK(report.exit_code == 0);
  CHECK(has(report.err, "trace.log.gz is INCOMPLETE"));
  CHECK(has(slurp(out / "index.html"), "trace.log.gz is INCOMPLETE"));

  tlscope::test::spit(gz, whole);
  RunResult again = run_tlscope(dir, "ingest " + q(gz) + " --db " + q(db));
  INFO(again.err);
  CHECK(again.exit_code == 0);
  CHECK(has(again.err, "its rows were replaced"));
  Connection c(db, OpenMode::kReadOnly);
  CHECK(scalar(c, "SELECT count(*) FROM events") == 76);
  CHECK(scalar(c, "SELECT count(*) FROM files") == 1);
  CHECK(scalar(c, "SELECT completed FROM files") == 1);
  CHECK_FALSE(has(run_tlscope(dir, "summary " + q(db)).out, "INCOMPLETE"));
}

TEST_CASE("after ingest --no-analyze, summary and report say the analysis is stale") {
  fs::path dir = scratch("stale");
  std::string db = (dir / "t.db").string();
  REQUIRE(run_tlscope(dir, "ingest " + q(kLogs + "/simple.log") + " --db " + q(db)).exit_code == 0);
  CHECK_FALSE(has(run_tlscope(dir, "summary " + q(db)).out, "STALE"));

  RunResult added =
      run_tlscope(dir, "ingest --no-analyze " + q(kLogs + "/multi_rank_logs") + " --db " + q(db));
  CHECK(added.exit_code == 0);
  CHECK(has(added.err, "analysis is STALE"));
  RunResult summary = run_tlscope(dir, "summary " + q(db));
  CHECK(has(summary.out, "analysis is STALE"));
  CHECK(has(summary.out, "4 file(s) added or changed"));
  fs::path out = dir / "report";
  RunResult report = run_tlscope(dir, "report " + q(db) + " -o " + q(out.string()));
  CHECK(report.exit_code == 0);
  CHECK(has(report.err, "analysis is STALE"));
  CHECK(has(slurp(out / "index.html"), "analysis is STALE"));

  REQUIRE(run_tlscope(dir, "analyze " + q(db)).exit_code == 0);
  CHECK_FALSE(has(run_tlscope(dir, "summary " + q(db)).out, "STALE"));
}
