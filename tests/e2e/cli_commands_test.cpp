// Exit codes and output of `tlscope ingest`, `summary` and `query` as a user sees them.
#include <catch2/catch.hpp>

#include "common/many_rank_logs.hpp"
#include "e2e_support.hpp"

using namespace e2e;
using tlscope::model::Connection;
using tlscope::model::OpenMode;

TEST_CASE("ingest: a missing input exits 2 naming the path") {
  fs::path dir = scratch("missing");
  std::string missing = (dir / "no_such_trace.log").string();
  RunResult r = run_tlscope(dir, "ingest " + q(missing) + " --db " + q((dir / "t.db").string()));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(missing) != std::string::npos);
}

TEST_CASE("ingest: --strict exits 1 on input errors, 0 without them") {
  fs::path dir = scratch("strict");
  std::string broken = kLogs + "/simple_corrupted_json.log";
  RunResult lax = run_tlscope(dir, "ingest " + q(broken) + " --db " + q((dir / "a.db").string()));
  CHECK(lax.exit_code == 0);
  RunResult strict =
      run_tlscope(dir, "ingest --strict " + q(broken) + " --db " + q((dir / "b.db").string()));
  CHECK(strict.exit_code == 1);
  RunResult clean = run_tlscope(
      dir, "ingest --strict " + q(kLogs + "/simple.log") + " --db " + q((dir / "c.db").string()));
  CHECK(clean.exit_code == 0);
  // The result line counts files, events and errors; not a TTY, so no progress bar.
  CHECK(lax.out.find("1 file(s) ingested") != std::string::npos);
  CHECK(lax.err.find('\r') == std::string::npos);
}

TEST_CASE("ingest: usage errors exit 2") {
  fs::path dir = scratch("usage");
  CHECK(run_tlscope(dir, "ingest " + q(kLogs + "/simple.log")).exit_code == 2);         // no --db
  CHECK(run_tlscope(dir, "ingest --db " + q((dir / "t.db").string())).exit_code == 2);  // no input
  RunResult help = run_tlscope(dir, "ingest --help");
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--strict") != std::string::npos);
  CHECK(run_tlscope(dir, "summary --help").exit_code == 0);
  CHECK(run_tlscope(dir, "query --help").exit_code == 0);
}

TEST_CASE("summary: files, ranks, kinds, errors and line accounting") {
  fs::path dir = scratch("summary");
  std::string db = (dir / "t.db").string();
  REQUIRE(run_tlscope(dir, "ingest " + q(kLogs + "/simple_corrupted_json.log") + " " +
                               q(kLogs + "/multi_rank_logs") + " --db " + q(db))
              .exit_code == 0);
  RunResult r = run_tlscope(dir, "summary " + q(db));
  REQUIRE(r.exit_code == 0);
  // simple_corrupted_json.log: 2222 lines as wc -l counts them (the last ends with a newline).
  CHECK(r.out.find("simple_corrupted_json.log") != std::string::npos);
  // The rank line counts every envelope of the rank's file, read off the log independently.
  int64_t rank3_events = 0;
  for (const auto& [kind, n] :
       envelope_kinds(kLogs + "/multi_rank_logs/dedicated_log_torch_trace_rank_3.log")) {
    rank3_events += n;
  }
  CHECK(r.out.find("rank 3: 1 file(s), " + std::to_string(rank3_events) + " events") !=
        std::string::npos);
  CHECK(r.out.find("simple_corrupted_json.log:13: [md5_mismatch]") != std::string::npos);
  CHECK(r.out.find("= " + std::to_string(line_count(kLogs + "/simple_corrupted_json.log")) +
                   "  ok") != std::string::npos);
  CHECK(r.out.find("MISMATCH") == std::string::npos);
  CHECK(r.out.find("INCOMPLETE") == std::string::npos);
  auto kinds = envelope_kinds(kLogs + "/simple_corrupted_json.log");
  CHECK(r.out.find(std::to_string(kinds["dynamo_start"])) != std::string::npos);
}

TEST_CASE("summary: a 40-rank job folds its quiet files and alike ranks, --files lists each") {
  fs::path dir = scratch("summary_fold");
  tlscope::test::write_many_rank_desync_logs(dir / "logs", 40, 3, 2, 2);
  std::string db = (dir / "t.db").string();
  REQUIRE(run_tlscope(dir, "ingest " + q((dir / "logs").string()) + " --db " + q(db)).exit_code ==
          0);
  RunResult folded = run_tlscope(dir, "summary " + q(db));
  REQUIRE(folded.exit_code == 0);
  // Every file is quiet and every rank logged 3 collectives: one line each section.
  CHECK(folded.out.find("40 files with nothing to flag: ranks 0-39 (all 40)") != std::string::npos);
  CHECK(folded.out.find("ranks 0-39 (all 40): 1 file(s), 3 events each") != std::string::npos);
  CHECK(folded.out.find("40 files with nothing to flag: ") != folded.out.rfind("40 files with"));
  CHECK(folded.out.find("rank_17") == std::string::npos);
  RunResult all = run_tlscope(dir, "summary --files " + q(db));
  REQUIRE(all.exit_code == 0);
  CHECK(all.out.find("nothing to flag") == std::string::npos);
  CHECK(all.out.find("rank 17: 1 file(s), 3 events") != std::string::npos);
  CHECK(all.out.find("rank_17") != std::string::npos);
  CHECK(std::count(folded.out.begin(), folded.out.end(), '\n') + 80 <
        std::count(all.out.begin(), all.out.end(), '\n'));
}

TEST_CASE("summary: an interrupted ingest is reported as incomplete") {
  fs::path dir = scratch("killed");
  std::string db = (dir / "t.db").string();
  REQUIRE(
      run_tlscope(dir, "ingest " + q(kLogs + "/comp_metrics.log") + " --db " + q(db)).exit_code ==
      0);
  {
    // What a killed ingest leaves: the file row was written, completed never set.
    Connection c(db, OpenMode::kReadWrite);
    c.exec("UPDATE files SET completed = 0");
  }
  RunResult r = run_tlscope(dir, "summary " + q(db));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("comp_metrics.log is INCOMPLETE") != std::string::npos);
}

TEST_CASE("summary and query: a missing database exits 2") {
  fs::path dir = scratch("nodb");
  std::string db = (dir / "absent.db").string();
  RunResult s = run_tlscope(dir, "summary " + q(db));
  CHECK(s.exit_code == 2);
  CHECK(s.err.find(db) != std::string::npos);
  CHECK(run_tlscope(dir, "query " + q(db) + " 'SELECT 1'").exit_code == 2);
  CHECK_FALSE(fs::exists(db));
}

TEST_CASE("query: aligned table, CSV, and SQL errors") {
  fs::path dir = scratch("query");
  std::string db = (dir / "t.db").string();
  REQUIRE(run_tlscope(dir, "ingest " + q(kLogs + "/links.log") + " --db " + q(db)).exit_code == 0);
  RunResult csv = run_tlscope(dir, "query " + q(db) + " 'SELECT name, url FROM links' --csv");
  CHECK(csv.exit_code == 0);
  CHECK(csv.out == "name,url\nmanifold_url,https://www.google.com\n");
  RunResult table = run_tlscope(dir, "query " + q(db) + " 'SELECT name, url FROM links'");
  CHECK(table.out ==
        "name          url\n------------  ----------------------\n"
        "manifold_url  https://www.google.com\n");
  RunResult quoted = run_tlscope(
      dir, "query " + q(db) +
               " \"SELECT 'a,b' AS x, 'say ' || char(34) || 'hi' || char(34) AS y\" --csv");
  CHECK(quoted.out == "x,y\n\"a,b\",\"say \"\"hi\"\"\"\n");
  RunResult bad = run_tlscope(dir, "query " + q(db) + " 'SELECT nope FROM links'");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("no such column: nope") != std::string::npos);
  // The database is opened read-only.
  CHECK(run_tlscope(dir, "query " + q(db) + " 'DELETE FROM links'").exit_code == 2);
}

TEST_CASE("ingest --jobs 2 parses files in parallel but stores them in input order") {
  fs::path dir = scratch("jobs");
  std::string inputs = q(kLogs + "/multi_rank_logs") + " " + q(kLogs + "/simple.log");
  REQUIRE(run_tlscope(dir, "ingest --jobs 1 " + inputs + " --db " + q((dir / "one.db").string()))
              .exit_code == 0);
  REQUIRE(run_tlscope(dir, "ingest --jobs 2 " + inputs + " --db " + q((dir / "two.db").string()))
              .exit_code == 0);
  auto rows = [](const fs::path& db_path) {
    Connection db(db_path.string(), OpenMode::kReadOnly);
    std::vector<std::string> out;
    tlscope::model::Statement s = db.prepare(
        "SELECT e.id, f.path, e.line, e.kind, coalesce(p.md5, '') FROM events e "
        "JOIN files f ON f.id = e.file_id LEFT JOIN payloads p ON p.id = e.payload_id "
        "ORDER BY e.id");
    while (s.step()) {
      out.push_back(s.text(0) + " " + s.text(1) + ":" + s.text(2) + " " +
                    s.text(3) + " " + s.text(4));
    }
    return out;
  };
  std::vector<std::string> one = rows(dir / "one.db");
  CHECK(one.size() > 1000);
  CHECK(rows(dir / "two.db") == one);
}

TEST_CASE("ingest builds the analysis tables unless --no-analyze") {
  fs::path dir = scratch("analyze");
  std::string log = q(kLogs + "/comp_failure.log");
  RunResult with = run_tlscope(dir, "ingest " + log + " --db " + q((dir / "a.db").string()));
  INFO(with.err);
  REQUIRE(with.exit_code == 0);
  RunResult without =
      run_tlscope(dir, "ingest --no-analyze " + log + " --db " + q((dir / "b.db").string()));
  REQUIRE(without.exit_code == 0);
  Connection a((dir / "a.db").string(), OpenMode::kReadOnly);
  Connection b((dir / "b.db").string(), OpenMode::kReadOnly);
  // comp_failure.log's compile failed with BackendCompilerFailed: the analysis reports it.
  CHECK(scalar(a, "SELECT count(*) FROM findings WHERE kind = 'compile_failure'") >= 1);
  CHECK(scalar(b, "SELECT count(*) FROM sqlite_schema WHERE name = 'findings'") == 0);
}

TEST_CASE("summary: the first lines say where a large compile time went, and what vLLM compiled") {
  fs::path dir = scratch("summary_compile_time");
  std::string simple = (dir / "simple.db").string();
  REQUIRE(run_tlscope(dir, "ingest " + q(kLogs + "/simple.log") + " --db " + q(simple)).exit_code ==
          0);
  RunResult r = run_tlscope(dir, "summary " + q(simple));
  REQUIRE(r.exit_code == 0);
  // simple.log's one compile: 1.66 s, backend_compile 1.31 s, inductor_codecache_torch_key.
  const size_t line = r.out.find(
      "Compile time 1.66 s over 1 compile: Dynamo tracing 0.36 s, backend 1.31 s, cache 0.07 s\n");
  CHECK(line != std::string::npos);
  CHECK(line < r.out.find("Files\n"));
  CHECK(r.out.find("costliest phases: dynamo 1.66 s (most in 0/0)") != std::string::npos);
  CHECK(r.out.find("vLLM:") == std::string::npos);

  std::string vllm = (dir / "vllm.db").string();
  REQUIRE(run_tlscope(dir, "ingest " + q(kLogs + "/vllm_post_grad_diff.log") + " --db " + q(vllm))
              .exit_code == 0);
  RunResult v = run_tlscope(dir, "summary " + q(vllm));
  REQUIRE(v.exit_code == 0);
  CHECK(v.out.find("vLLM: 1 compile call(s), 0 piecewise compile(s) over 0 size(s) or range(s), "
                   "2 post-grad pass run(s)\n") < v.out.find("Files\n"));
  CHECK(v.out.find("Compile time") == std::string::npos);  // the log times no compile
}
