// The read layer on databases made by someone else (docs/schema.md, "Databases from elsewhere"):
// a view stored where tlscope keeps a table is refused with a message, not run; tlscope's own
// views still read; a runaway statement is stopped. Each database is a real ingest of the shared
// logs, altered with the SQLite API.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "common/sql_rows.hpp"
#include "real_db.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/summary.hpp"

using namespace tlscope;
using Catch::Matchers::Contains;

namespace {

void alter(const std::string& path, const std::string& sql) {
  REQUIRE_NOTHROW(test::sql_exec_file(path, sql));
}

// Calls `read` on `db`; should it still run after `seconds`, interrupts it (so that a build whose
// connection runs the stored SQL fails this test instead of hanging it).
template <typename Read>
void with_deadline(const views::Database& db, double seconds, Read&& read) {
  std::atomic<bool> done{false};
  std::thread stopper([&] {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!done && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!done) sqlite3_interrupt(db.handle());
  });
  read();
  done = true;
  stopper.join();
}

const char* kEndless = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)";

}  // namespace

TEST_CASE("a table replaced by an endless view is refused with a message, not run",
          "[views][hostile]") {
  std::string path = test::analysed_real_log("hostile_view", {"comp_failure.log"});
  alter(path, std::string("ALTER TABLE findings RENAME TO findings_real;"
                          "CREATE VIEW findings AS ") +
                  kEndless +
                  " SELECT x AS id, 'compile_failure' AS kind, 'error' AS severity, NULL AS "
                  "ranks, NULL AS other_ranks, NULL AS pg_name, NULL AS pg_desc, x AS seq, "
                  "'0/0' AS compile_id, NULL AS frame, NULL AS file, NULL AS line, '{}' AS detail "
                  "FROM r");
  views::Database db(path);
  REQUIRE(db.ok());
  views::Result<views::Findings> findings;
  auto start = std::chrono::steady_clock::now();
  with_deadline(db, 10, [&] { findings = views::load_findings(db); });
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK_THAT(findings.error, Contains(path));
  CHECK_THAT(findings.error, Contains("views tlscope never makes: findings"));
  CHECK_THAT(findings.error, Contains("not made by tlscope or was altered"));
  // The rest of the database still reads: comp_failure.log's one file.
  views::Result<views::Summary> summary = views::load_summary(db);
  CHECK(summary->files.size() == 1);
}

TEST_CASE("tlscope's own views read the same on a guarded connection", "[views][hostile]") {
  std::string path = test::analysed_real_log("hostile_own_views", {"chromium_events.log"});
  views::Database db(path);
  REQUIRE(db.ok());
  int64_t rows = db.scalar("SELECT count(*) FROM chromium_event_rows");
  CHECK(rows > 0);
  CHECK(db.scalar("SELECT count(*) FROM chromium_events") == rows);
  CHECK(db.scalar("SELECT count(*) FROM stack_frames") ==
        db.scalar("SELECT count(*) FROM event_stacks es JOIN stacks s USING (stack_id)"));
  CHECK(db.scalar("SELECT count(*) FROM compile_directory") > 0);
  // A file tlscope made holds only tlscope's views, with its very SQL: they are read from the
  // file, and no TEMP copy is made.
  CHECK(db.scalar("SELECT count(*) FROM sqlite_temp_master WHERE type = 'view'") == 0);
  // A file's view with tlscope's name but other SQL is not what tlscope reads.
  alter(path,
        std::string("DROP VIEW chromium_events; CREATE VIEW chromium_events AS ") + kEndless +
            " SELECT x AS id, x AS event_id, 1 AS file_id, 0 AS rank, 'n' AS name, 'c' AS cat, "
            "'X' AS ph, x AS ts, 1 AS dur, 1 AS pid, 1 AS tid, '0/0' AS compile_id, NULL AS "
            "args, NULL AS end_event_id FROM r");
  views::Database altered(path);
  REQUIRE(altered.ok());
  int64_t n = -1;
  with_deadline(altered, 10, [&] { n = altered.scalar("SELECT count(*) FROM chromium_events"); });
  CHECK(n == rows);
  // There the file's views are off, and tlscope's are this connection's TEMP copies.
  CHECK(altered.scalar("SELECT count(*) FROM sqlite_temp_master WHERE type = 'view' AND name = "
                       "'chromium_events'") == 1);
  CHECK(altered.scalar("SELECT count(*) FROM stack_frames") ==
        altered.scalar("SELECT count(*) FROM event_stacks es JOIN stacks s USING (stack_id)"));
}

TEST_CASE("a statement that works too long without a row is stopped with a message",
          "[views][hostile]") {
  std::string path = test::analysed_real_log("hostile_runaway", {"simple.log"});
  setenv("TLSCOPE_STATEMENT_SECONDS", "0.5", 1);
  views::Database db(path);
  unsetenv("TLSCOPE_STATEMENT_SECONDS");
  REQUIRE(db.ok());
  views::Statement s = db.prepare(std::string(kEndless) + " SELECT count(*) FROM r");
  auto start = std::chrono::steady_clock::now();
  bool row = true;
  with_deadline(db, 10, [&] { row = s.step(); });
  CHECK_FALSE(row);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK_THAT(s.error(), Contains(path));
  CHECK_THAT(s.error(), Contains("TLSCOPE_STATEMENT_SECONDS"));
}

TEST_CASE("a hot journal beside a database is named and left alone, not rolled back",
          "[views][hostile]") {
  std::string path = test::analysed_real_log("hostile_journal", {"simple.log"});
  namespace fs = std::filesystem;
  // A write caught mid-way: the open transaction has spilled pages, so its journal is hot; copies
  // of both files, made while it is open, are what a kill at that moment leaves.
  std::string copy = path + ".copy.db";
  sqlite3* writer = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &writer) == SQLITE_OK);
  REQUIRE(sqlite3_exec(writer,
                       "PRAGMA journal_mode=DELETE; PRAGMA cache_size=1; BEGIN;"
                       "UPDATE payloads SET text = upper(text); DELETE FROM events;",
                       nullptr, nullptr, nullptr) == SQLITE_OK);
  REQUIRE(fs::exists(path + "-journal"));
  fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
  fs::copy_file(path + "-journal", copy + "-journal", fs::copy_options::overwrite_existing);
  sqlite3_exec(writer, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(writer);
  const std::string db_bytes = test::slurp(copy), journal_bytes = test::slurp(copy + "-journal");

  views::Database db(copy);
  CHECK_FALSE(db.ok());
  CHECK_THAT(db.error(), Contains(copy + ": a write into it was interrupted"));
  CHECK_THAT(db.error(), Contains("tlscope analyze"));
  CHECK(test::slurp(copy) == db_bytes);
  CHECK(test::slurp(copy + "-journal") == journal_bytes);
}
