// Hostile input at the command line (issue 12): FIFOs and devices as inputs or database paths
// (4), `query` that must not write (14), and terminal escapes from a log (15).
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "e2e_support.hpp"

using namespace e2e;

namespace {

// `tlscope <args>` killed after `seconds`: a command blocked on a FIFO exits 124, not never.
RunResult run_within(const fs::path& dir, const std::string& args, int seconds = 30) {
  return run_tlscope(dir, args, "</dev/null", seconds);
}

std::string ingested_simple(const fs::path& dir) {
  std::string db = (dir / "s.db").string();
  REQUIRE(run_within(dir, "ingest --no-analyze " + q(kLogs + "/simple.log") + " --db " + q(db))
              .exit_code == 0);
  return db;
}

const std::string kRecord = "V0101 00:00:00.000000 1 torch/x.py:1] {\"str\": [\"/x.py\", 0]}\n";

}  // namespace

TEST_CASE("hostile cli: query refuses VACUUM INTO, ATTACH, pragma writes and every write") {
  fs::path dir = scratch("query_read_only");
  std::string db = ingested_simple(dir);
  fs::path copy = dir / "copy.db", attached = dir / "attached.db";
  const std::string refused[] = {
      "\"VACUUM INTO '" + copy.string() + "'\"",
      "VACUUM",
      "\"ATTACH '" + attached.string() + "' AS other\"",
      "\"PRAGMA user_version = 7\"",
      "\"PRAGMA journal_mode = DELETE\"",
      "\"INSERT INTO files(path) VALUES ('x')\"",
      "\"DELETE FROM events\"",
      "\"CREATE TABLE t(x)\"",
      "\"DROP TABLE events\"",
      "\"SELECT 1; VACUUM INTO '" + copy.string() + "'\"",
  };
  for (const std::string& sql : refused) {
    INFO(sql);
    RunResult r = run_within(dir, "query " + q(db) + " " + sql);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(db) != std::string::npos);
    CHECK(r.err.find("read-only") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(copy));
  CHECK_FALSE(fs::exists(attached));
  tlscope::model::Connection check(db, tlscope::model::OpenMode::kReadOnly);
  CHECK(scalar(check, "PRAGMA user_version") == 0);
  CHECK(scalar(check, "SELECT count(*) FROM events") > 0);
  // Reading still works, pragmas that only report included.
  RunResult count = run_within(dir, "query " + q(db) + " \"SELECT count(*) AS n FROM events\"");
  CHECK(count.exit_code == 0);
  CHECK(count.out.find("n\n") == 0);
  RunResult info = run_within(dir, "query " + q(db) + " \"PRAGMA table_info(files)\"");
  CHECK(info.exit_code == 0);
  CHECK(info.out.find("path") != std::string::npos);
}

TEST_CASE("hostile cli: escapes in log text and file names reach summary and query escaped") {
  fs::path dir = scratch("terminal_escapes");
  // A file name with ESC and a lone 8-bit CSI byte; a failed compile whose reason retitles the
  // window and clears the screen, and whose co_name turns the text red (JSON escapes, which the
  // store unescapes into its columns).
  fs::path log = dir / "dedicated_log_torch_trace_rank_0_\x1b[2J\x9b.log";
  tlscope::test::spit(log, kRecord +
                               "V0101 00:00:00.000000 1 torch/x.py:2] {\"compilation_metrics\": "
                               "{\"co_name\": \"f\\u001b[31mred\", \"fail_type\": \"Boom\", "
                               "\"fail_reason\": \"boom \\u001b]0;owned\\u0007\\u001b[2J\"}, "
                               "\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}\n");
  std::string db = (dir / "e.db").string();
  REQUIRE(run_within(dir, "ingest " + q(log.string()) + " --db " + q(db)).exit_code == 0);
  auto raw_free = [](const std::string& s) {
    return s.find('\x1b') == std::string::npos && s.find('\x9b') == std::string::npos &&
           s.find('\x07') == std::string::npos;
  };
  RunResult summary = run_within(dir, "summary " + q(db));
  CHECK(summary.exit_code == 0);
  CHECK(raw_free(summary.out));
  CHECK(summary.out.find("f\\x1b[31mred failed with Boom: boom \\x1b]0;owned\\x07\\x1b[2J") !=
        std::string::npos);
  CHECK(summary.out.find("rank_0_\\x1b[2J\\x9b.log") != std::string::npos);

  RunResult query = run_within(dir, "query " + q(db) +
                                        " \"SELECT fail_reason, co_name, (SELECT path FROM files) "
                                        "AS p FROM compilation_metrics\"");
  CHECK(query.exit_code == 0);
  CHECK(raw_free(query.out));
  CHECK(query.out.find("boom \\x1b]0;owned\\x07\\x1b[2J") != std::string::npos);
  CHECK(query.out.find("f\\x1b[31mred") != std::string::npos);
  CHECK(query.out.find("\\x1b[2J\\x9b.log") != std::string::npos);
  // CSV into a file (not a terminal) is data and keeps the bytes.
  RunResult csv =
      run_within(dir, "query --csv " + q(db) + " \"SELECT fail_reason FROM compilation_metrics\"");
  CHECK(csv.exit_code == 0);
  CHECK(csv.out.find("boom \x1b]0;owned\x07\x1b[2J") != std::string::npos);
}

TEST_CASE("hostile cli: a FIFO as a database path is refused by every command, at once") {
  fs::path dir = scratch("fifo_db");
  std::string fifo = (dir / "run.db").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string out = (dir / "report").string();
  const std::string commands[] = {
      "summary " + q(fifo),
      "query " + q(fifo) + " \"SELECT 1\"",
      "analyze " + q(fifo),
      "report " + q(fifo) + " -o " + q(out),
      "export chrome-trace " + q(fifo) + " -o " + q((dir / "t.json").string()),
      "ingest " + q(kLogs + "/simple.log") + " --db " + q(fifo),
  };
  for (const std::string& args : commands) {
    INFO(args);
    RunResult r = run_within(dir, args);
    CHECK(r.exit_code == 2);  // 124 when it blocked until the timeout
    CHECK(r.err.find(fifo) != std::string::npos);
  }
}

TEST_CASE("hostile cli: ingest names a FIFO or /dev/zero link in a run directory and skips it") {
  fs::path dir = scratch("fifo_rank");
  fs::path runs = dir / "run";
  fs::create_directories(runs);
  tlscope::test::spit(runs / "dedicated_log_torch_trace_rank_0.log", kRecord);
  std::string fifo = (runs / "dedicated_log_torch_trace_rank_1.log").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string zero = (runs / "dedicated_log_torch_trace_rank_2.log").string();
  fs::create_symlink("/dev/zero", zero);
  std::string db = (dir / "f.db").string();
  RunResult r = run_within(dir, "ingest --no-analyze " + q(runs.string()) + " --db " + q(db));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(fifo + ": a FIFO") != std::string::npos);
  CHECK(r.err.find(zero + ": a character device") != std::string::npos);
  tlscope::model::Connection check(db, tlscope::model::OpenMode::kReadOnly);
  CHECK(scalar(check, "SELECT count(*) FROM files") == 1);
  CHECK(scalar(check, "SELECT count(*) FROM events") == 1);
  // Named on the command line, the FIFO is refused the same way.
  RunResult direct = run_within(dir, "ingest " + q(fifo) + " --db " + q((dir / "g.db").string()));
  CHECK(direct.exit_code == 2);
  CHECK(direct.err.find(fifo + ": a FIFO") != std::string::npos);
}
