// Ingest through its parse-thread batches: what crosses a batch boundary (a run of bad lines,
// chromium rows built on the parse side) must come out as if the file were written in one piece.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include "common/scratch_files.hpp"
#include "model/store_queries.hpp"
#include "tlscope/model/event_writer.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/parser/reader.hpp"

using namespace tlscope;
using model::Connection;
using test::count;
using test::text;

namespace {

namespace fs = std::filesystem;

fs::path batches_scratch(const std::string& name) {
  return test::fresh_scratch("model_scratch", name);
}

// Feeds the parser's events straight to an EventWriter that builds its own chromium rows: the
// path without batches, to compare ingest's batched one against.
class DirectSink final : public parser::EventSink {
 public:
  explicit DirectSink(model::EventWriter& w) : w_(w) {}
  void on_source_begin(const parser::SourceInfo& s) override { w_.begin_file(s); }
  void on_event(const parser::Event& e) override { w_.add_event(e); }
  void on_error(const parser::ParseError& e) override { w_.add_error(e); }
  void on_source_end(const parser::SourceSummary& s) override { w_.end_file(s); }

 private:
  model::EventWriter& w_;
};

}  // namespace

TEST_CASE("a run of bad lines longer than a parse batch is one ingest_errors row") {
  // ~6 MB of pasted text between two halves of a real log: longer than the 4 MiB batches the
  // parser cuts, so the run is split across chunks and must be joined again.
  std::string good = test::slurp(std::string(TLSCOPE_FIXTURES) + "/comp_failure.log");
  size_t cut = good.find("\nV", good.size() / 2) + 1;
  REQUIRE(cut > 1);
  std::string junk;
  const int kJunkLines = 100000;
  for (int i = 0; i < kJunkLines; ++i) {
    junk += "pasted output " + std::to_string(i) + std::string(48, '.') + "\n";
  }
  REQUIRE(junk.size() > (size_t{5} << 20));
  fs::path dir = batches_scratch("bad_run");
  std::string log = (dir / "run.log").string();
  test::spit(log, good.substr(0, cut) + junk + good.substr(cut));
  std::string db_path = (dir / "run.db").string();

  model::IngestResult result = model::ingest(db_path, {log});
  REQUIRE(result.files.size() == 1);
  Connection db(db_path);
  CHECK(count(db, "SELECT count(*) FROM ingest_errors") == 1);
  int64_t first_line = std::count(good.begin(), good.begin() + cut, '\n') + 1;
  CHECK(text(db, "SELECT kind || ':' || line || ':' || line_count FROM ingest_errors") ==
        "bad_header:" + std::to_string(first_line) + ":" + std::to_string(kJunkLines));
  CHECK(text(db, "SELECT excerpt FROM ingest_errors") == "pasted output 0" + std::string(48, '.'));
  CHECK(count(db, "SELECT error_lines FROM files") == kJunkLines);
  CHECK(count(db, "SELECT errors FROM files") == 1);
  // Everything around the run is intact: as many events as the log alone gives.
  std::string alone_db = (dir / "alone.db").string();
  model::ingest(alone_db, {std::string(TLSCOPE_FIXTURES) + "/comp_failure.log"});
  Connection alone(alone_db);
  CHECK(count(db, "SELECT count(*) FROM events") == count(alone, "SELECT count(*) FROM events"));
  fs::remove_all(dir);
}

TEST_CASE("chromium rows built on the parse threads equal those the writer builds itself") {
  // The rank-1 log of multi_rank_logs has 544 chromium events (B/E pairs, instants) over 3.5 MB;
  // every one is a row or the end of a matched B row.
  std::string log =
      std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs/dedicated_log_torch_trace_rank_1.log";
  fs::path dir = batches_scratch("chromium");
  std::string batched_db = (dir / "batched.db").string();
  model::ingest(batched_db, {log});

  std::string direct_db = (dir / "direct.db").string();
  {
    Connection db(direct_db);
    model::open_for_ingest(db);
    model::EventWriter w(db, model::ChromiumRows::kBuiltByWriter);
    parser::InputPlan plan = parser::plan_inputs({log});
    REQUIRE(plan.sources.size() == 1);
    DirectSink sink(w);
    parser::parse_source(plan.sources[0], sink);
    w.finish();
  }
  Connection db(batched_db);
  db.exec("ATTACH '" + direct_db + "' AS direct");
  int64_t rows = count(db, "SELECT count(*) FROM chromium_events");
  CHECK(rows + count(db, "SELECT count(end_event_id) FROM chromium_events") == 544);
  // tlscope runs no view stored in a file, an attached one's included (connection_guard.hpp):
  // the two files' views are compared on a plain SQLite connection.
  auto plain_count = [&](const std::string& sql) {
    sqlite3* raw = nullptr;
    sqlite3_open_v2(batched_db.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
    std::string attached = "ATTACH '" + direct_db + "' AS direct";
    sqlite3_exec(raw, attached.c_str(), nullptr, nullptr, nullptr);
    sqlite3_stmt* st = nullptr;
    int64_t n = -1;
    if (sqlite3_prepare_v2(raw, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
      n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(raw);
    return n;
  };
  CHECK(plain_count("SELECT count(*) FROM direct.chromium_events") == rows);
  CHECK(plain_count("SELECT count(*) FROM (SELECT * FROM chromium_events "
                    "EXCEPT SELECT * FROM direct.chromium_events)") == 0);
  CHECK(count(db, "SELECT count(*) FROM chromium_events WHERE dur IS NOT NULL AND ph = 'B'") > 0);
  // Each row points at its own chromium_event record.
  CHECK(count(db,
              "SELECT count(*) FROM chromium_events c JOIN events e ON e.id = c.event_id "
              "WHERE e.kind = 'chromium_event' AND e.file_id = c.file_id") == rows);
  CHECK(
      count(db, "SELECT count(*) FROM (SELECT * FROM events EXCEPT SELECT * FROM direct.events)") ==
      0);
  fs::remove_all(dir);
}

TEST_CASE("an ingest with a small page cache and a short batch queue writes the same rows") {
  // compare ingests two runs at once, each with an eighth of the page cache and half the queue of
  // parsed batches (IngestOptions::page_cache_kib, ::queue_depth): the rows must not depend on it.
  // ~8 MB of log (the rank-1 log twice as two files), so that batches queue and the cache spills.
  const std::string log =
      std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs/dedicated_log_torch_trace_rank_1.log";
  fs::path dir = batches_scratch("lean");
  test::spit((dir / "a.log").string(), test::slurp(log) + test::slurp(log));
  test::spit((dir / "b.log").string(), test::slurp(log));
  const std::vector<std::string> inputs = {(dir / "a.log").string(), (dir / "b.log").string()};
  model::ingest((dir / "default.db").string(), inputs);
  model::IngestOptions lean;
  lean.page_cache_kib = 256;
  lean.queue_depth = 1;
  model::ingest((dir / "lean.db").string(), inputs, lean);
  Connection a((dir / "default.db").string()), b((dir / "lean.db").string());
  for (const char* sql :
       {"SELECT count(*) FROM events", "SELECT count(*) FROM payloads",
        "SELECT count(*) FROM chromium_events", "SELECT sum(length(metadata)) FROM events",
        "SELECT sum(line) FROM events", "SELECT count(*) FROM ingest_errors"}) {
    INFO(sql);
    CHECK(count(a, sql) == count(b, sql));
  }
  CHECK(count(b, "SELECT count(*) FROM events") > 1000);
  CHECK(count(b, "SELECT count(*) FROM files") == 2);
  fs::remove_all(dir);
}
