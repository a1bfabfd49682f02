// `tlscope ingest` on every real PyTorch log: row counts and line accounting checked against the
// logs themselves, typed tables against values read off the logs.
#include <catch2/catch.hpp>

#include "e2e_support.hpp"
#include "tlscope/parser/reader.hpp"

using namespace e2e;
using tlscope::model::Connection;
using tlscope::model::OpenMode;

TEST_CASE("every real log: one events row per envelope line, lines add up") {
  fs::path dir = scratch("all_logs");
  std::vector<std::string> logs = all_logs();
  REQUIRE(logs.size() == 17);  // the .log files of ../shared/logs/torch and its two rank folders
  std::string args = "ingest";
  for (const auto& log : logs) args.append(" ").append(q(log));
  RunResult r = run_tlscope(dir, args + " --db " + q((dir / "t.db").string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);

  Connection db((dir / "t.db").string(), OpenMode::kReadOnly);
  int stored = 0;
  for (const auto& log : logs) {
    INFO(log);
    tlscope::model::Statement f = db.prepare(
        "SELECT id, lines, envelope_lines + payload_lines + blank_lines + error_lines, completed, "
        "events FROM files WHERE path = ?");
    // Inputs are stored as the kernel resolves them (kLogs holds a `..`).
    const std::string stored_path = fs::canonical(log).string();  // bound, not copied: kept
    f.bind_static(1, stored_path);
    if (!f.step()) {
      // Skipped as a repeat: an earlier input with the same bytes (and no rank in its name,
      // like this one) is stored. comp_failure.log is a byte copy of chromium_events.log.
      CHECK_FALSE(tlscope::parser::rank_from_filename(log).has_value());
      bool has_twin = false;
      for (const auto& other : logs) {
        if (other < log && slurp(other) == slurp(log) &&
            !tlscope::parser::rank_from_filename(other)) {
          has_twin = true;
          CHECK(r.err.find(fs::canonical(log).string() + ": same content as " +
                           fs::canonical(other).string()) != std::string::npos);
        }
      }
      CHECK(has_twin);
      continue;
    }
    ++stored;
    int64_t file_id = f.int64(0);
    CHECK(f.int64(1) == line_count(log));
    CHECK(f.int64(2) == line_count(log));
    CHECK(f.int64(3) == 1);
    std::map<std::string, int64_t> expected = envelope_kinds(log);
    CHECK(db_kinds(db, file_id) == expected);
    int64_t total = 0;
    for (auto& [k, n] : expected) total += n;
    CHECK(f.int64(4) == total);
  }
  // Only comp_failure.log repeats an earlier rank-less log; the byte-identical rank files
  // (multi_rank_schedule rank 0 and 2) are different ranks and both stay.
  CHECK(stored == 16);  // 17 logs, comp_failure.log a byte copy of chromium_events.log
  // Event ids follow the input order: files in ingest order, lines in file order.
  CHECK(scalar(db,
               "SELECT count(*) FROM events a JOIN events b ON b.id = a.id + 1 "
               "WHERE b.file_id < a.file_id OR (b.file_id = a.file_id AND b.line <= a.line)") == 0);
}

TEST_CASE("simple_corrupted_json.log: the damaged record is an error, the rest equals simple.log") {
  fs::path dir = scratch("corrupted");
  std::string simple = kLogs + "/simple.log", broken = kLogs + "/simple_corrupted_json.log";
  RunResult r = run_tlscope(
      dir, "ingest " + q(simple) + " " + q(broken) + " --db " + q((dir / "t.db").string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  Connection db((dir / "t.db").string(), OpenMode::kReadOnly);
  CHECK(db_kinds(db, 1) == db_kinds(db, 2));
  CHECK(scalar(db, "SELECT count(*) FROM ingest_errors WHERE file_id = 1") == 0);
  // simple_corrupted_json.log lost the payload line "},"" of the chromium_event whose envelope is
  // line 13: its MD5 no longer matches and its JSON no longer parses.
  CHECK(scalar(db,
               "SELECT count(*) FROM ingest_errors WHERE file_id = 2 AND line = 13 "
               "AND kind = 'md5_mismatch'") == 1);
  CHECK(scalar(db, "SELECT count(*) FROM ingest_errors WHERE file_id = 2 AND line <> 13") == 0);
  CHECK(scalar(db, "SELECT md5_ok FROM events WHERE file_id = 2 AND line = 13") == 0);
  // Every readable chromium_event is a row or the end of a matched B row: one fewer in file 2.
  const char* readable =
      "SELECT count(*) + count(end_event_id) FROM chromium_events WHERE file_id = ";
  CHECK(scalar(db, std::string(readable) + "1") == scalar(db, std::string(readable) + "2") + 1);
}

TEST_CASE("multi-rank directories ingest as one source per rank file") {
  fs::path dir = scratch("multi_rank");
  RunResult r = run_tlscope(dir, "ingest " + q(kLogs + "/multi_rank_logs") + " " +
                                     q(kLogs + "/multi_rank_schedule") + " --db " +
                                     q((dir / "t.db").string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  Connection db((dir / "t.db").string(), OpenMode::kReadOnly);
  CHECK(scalar(db, "SELECT count(*) FROM files") == 7);
  for (int rank = 0; rank < 4; ++rank) {
    CHECK(text(db, "SELECT rank FROM files WHERE path LIKE '%multi_rank_logs/%rank_" +
                       std::to_string(rank) + ".log'") == std::to_string(rank));
  }
  CHECK(text(db, "SELECT rank FROM files WHERE path LIKE '%rank_1_n8zycf07.log'") == "1");
  CHECK(text(db,
             "SELECT group_concat(rank) FROM (SELECT rank FROM files "
             "WHERE path LIKE '%multi_rank_schedule%' ORDER BY rank)") == "0,1,2");
  // Events without an envelope rank (str lines, and every line of multi_rank_logs) carry their
  // file's rank.
  CHECK(scalar(db,
               "SELECT count(*) FROM events e JOIN files f ON f.id = e.file_id "
               "WHERE (e.kind = 'str' OR f.path LIKE '%multi_rank_logs%') "
               "AND e.rank IS NOT f.rank") == 0);
  // ...while an envelope rank is kept as written: rank_1_n8zycf07.log's 159 envelopes say
  // "rank": 0, a fixture that disagrees with its file name.
  CHECK(scalar(db,
               "SELECT count(*) FROM events e JOIN files f ON f.id = e.file_id "
               "WHERE f.path LIKE '%rank_1_n8zycf07.log' AND e.rank = 0") == 159);
}

TEST_CASE("ingesting the same content twice adds nothing") {
  fs::path dir = scratch("twice");
  std::string db_path = (dir / "t.db").string();
  std::string simple = kLogs + "/simple.log";
  RunResult first = run_tlscope(dir, "ingest " + q(simple) + " --db " + q(db_path));
  REQUIRE(first.exit_code == 0);
  auto counts = [&] {
    Connection db(db_path, OpenMode::kReadOnly);
    return std::vector<int64_t>{scalar(db, "SELECT count(*) FROM files"),
                                scalar(db, "SELECT count(*) FROM events"),
                                scalar(db, "SELECT count(*) FROM payloads"),
                                scalar(db, "SELECT count(*) FROM chromium_events"),
                                scalar(db, "SELECT count(*) FROM stack_frames"),
                                scalar(db, "SELECT count(*) FROM ingest_errors")};
  };
  std::vector<int64_t> before = counts();
  // Again in a second run, and twice more in one run (once through a copy with another name).
  fs::copy_file(simple, dir / "renamed.log");
  RunResult again = run_tlscope(
      dir, "ingest " + q(simple) + " " + q((dir / "renamed.log").string()) + " --db " + q(db_path));
  INFO(again.err);
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("same content as") != std::string::npos);
  CHECK(counts() == before);
}

TEST_CASE("gzip and stdin inputs give the same rows as the plain file") {
  fs::path dir = scratch("gz_stdin");
  std::string simple = kLogs + "/simple.log";
  std::string gz = (dir / "simple.log.gz").string();
  REQUIRE(std::system(("gzip -c " + q(simple) + " > " + q(gz)).c_str()) == 0);
  RunResult a = run_tlscope(dir, "ingest " + q(gz) + " --db " + q((dir / "gz.db").string()));
  RunResult b =
      run_tlscope(dir, "ingest - --db " + q((dir / "in.db").string()) + " < " + q(simple));
  INFO(a.err << b.err);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  Connection gzdb((dir / "gz.db").string(), OpenMode::kReadOnly);
  Connection indb((dir / "in.db").string(), OpenMode::kReadOnly);
  std::map<std::string, int64_t> expected = envelope_kinds(simple);
  CHECK(db_kinds(gzdb, 1) == expected);
  CHECK(db_kinds(indb, 1) == expected);
  CHECK(scalar(gzdb, "SELECT gzip FROM files") == 1);
  CHECK(text(indb, "SELECT path FROM files") == "-");
  CHECK(scalar(gzdb, "SELECT bytes FROM files") == static_cast<int64_t>(fs::file_size(simple)));
}

TEST_CASE("typed tables hold the values written in the logs") {
  fs::path dir = scratch("typed");
  std::string db_path = (dir / "t.db").string();
  RunResult r = run_tlscope(dir, "ingest " + q(kLogs + "/comp_failure.log") + " " +
                                     q(kLogs + "/simple.log") + " " + q(kLogs + "/links.log") +
                                     " " + q(kLogs + "/artifacts.log") + " --db " + q(db_path));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  Connection db(db_path, OpenMode::kReadOnly);
  // comp_failure.log: a compile failed in the backend.
  CHECK(text(db,
             "SELECT group_concat(DISTINCT fail_type) FROM compilation_metrics "
             "WHERE file_id = 1 AND fail_type IS NOT NULL") == "BackendCompilerFailed");
  CHECK(scalar(db,
               "SELECT count(*) FROM compilation_metrics WHERE file_id = 1 AND "
               "fail_reason LIKE '%broken backend%'") >= 1);
  // simple.log's first chromium pair: compile_file B at ts 1733527095925179.5, E at
  // 1733527096845517.0.
  CHECK(text(db,
             "SELECT dur FROM chromium_events WHERE file_id = 2 AND name = 'compile_file' "
             "AND ph = 'B' ORDER BY id LIMIT 1") == "920337.5");
  // Each chromium_event is a row, or the E that ends a B row.
  CHECK(
      scalar(db, "SELECT count(*) + count(end_event_id) FROM chromium_events WHERE file_id = 2") ==
      scalar(db, "SELECT count(*) FROM events WHERE file_id = 2 AND kind = 'chromium_event'"));
  CHECK(scalar(db,
               "SELECT count(*) FROM chromium_events c JOIN events e ON e.id = c.end_event_id "
               "WHERE c.file_id = 2 AND e.kind = 'chromium_event' AND e.line > 0") > 0);
  // simple.log's one describe_tensor.
  CHECK(text(db,
             "SELECT size || ' ' || stride || ' ' || dtype FROM describe_tensor "
             "WHERE file_id = 2") == "[1, 320, 128, 128] [5242880, 1, 40960, 320] torch.float32");
  // links.log: one manifold link.
  CHECK(text(db, "SELECT name || ' ' || url FROM links WHERE file_id = 3") ==
        "manifold_url https://www.google.com");
  // artifacts.log: its one fx_graph_cache_hash artifact, JSON-encoded, with a payload.
  CHECK(scalar(db,
               "SELECT count(*) FROM artifacts a JOIN payloads p ON p.id = a.payload_id "
               "WHERE a.file_id = 4 AND a.name = 'fx_graph_cache_hash' "
               "AND a.encoding = 'json'") == 1);
  // dynamo_start stacks: frames resolve through the str table (simple.log interns
  // test_torchinductor.py as index 1).
  CHECK(scalar(db,
               "SELECT count(*) FROM stack_frames s JOIN events e ON e.id = s.event_id "
               "WHERE e.file_id = 2 AND s.filename_idx = 1 AND s.filename LIKE "
               "'%/test/inductor/test_torchinductor.py'") >= 1);
  CHECK(scalar(db,
               "SELECT count(*) FROM stack_frames s JOIN events e ON e.id = s.event_id "
               "WHERE e.kind = 'dynamo_start' AND s.filename IS NULL") == 0);
}
