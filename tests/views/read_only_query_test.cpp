// The SQL console's query: reads return typed cells, and nothing that writes, attaches or sets a
// pragma runs, each refusal saying what was refused; the database is unchanged afterwards.
#include <catch2/catch.hpp>

#include "tlscope/views/database.hpp"
#include "tlscope/views/read_only_query.hpp"
#include "views/schema_fixture.hpp"

using tlscope::views::run_read_only_query;

namespace {

// One file per test case: ctest runs the cases in parallel.
std::string fixture(const std::string& name) {
  return tlscope::test::make_fixture_db(std::string(TLSCOPE_BINARY_DIR) +
                                        "/tests/read_only_query_" + name + ".db");
}

}  // namespace

TEST_CASE("a read returns its columns and typed cells, the last statement with columns winning") {
  const std::string db = fixture("reads");
  auto r =
      run_read_only_query(db, "SELECT 1; SELECT count(*) AS n, 'x' AS s, NULL AS z FROM events");
  INFO(r.error);
  REQUIRE(r.ok);
  REQUIRE(r.columns == std::vector<std::string>{"n", "s", "z"});
  REQUIRE(r.rows.size() == 1);
  CHECK(r.rows[0][0].is_number);
  CHECK(r.rows[0][0].text ==
        std::to_string(tlscope::views::Database(db).scalar("SELECT count(*) FROM events")));
  CHECK_FALSE(r.rows[0][1].is_number);
  CHECK(r.rows[0][2].is_null);
  auto capped = run_read_only_query(
      db,
      "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c LIMIT 50) SELECT i FROM c",
      10);
  REQUIRE(capped.ok);
  CHECK(capped.rows.size() == 10);
  CHECK(capped.truncated);
}

TEST_CASE("writes, ATTACH, VACUUM INTO and setting pragmas are refused in words") {
  const std::string db = fixture("writes");
  const int64_t before = tlscope::views::Database(db).scalar("SELECT count(*) FROM events");
  const std::string other = std::string(TLSCOPE_BINARY_DIR) + "/tests/read_only_query_copy.db";
  std::filesystem::remove(other);
  struct Case {
    std::string sql, says;
  };
  for (const Case& c :
       {Case{"DELETE FROM events", "read-only"},
        Case{"INSERT INTO events(id) VALUES (999999)", "read-only"},
        Case{"DROP TABLE events", "read-only"},
        Case{"ATTACH '" + other + "' AS o", "ATTACH is refused"},
        Case{"VACUUM INTO '" + other + "'", "a statement that writes is refused"},
        Case{"PRAGMA user_version = 5", "setting PRAGMA user_version is refused"},
        Case{"SELECT 1; DELETE FROM events", "read-only"}, Case{"SELEKT 1", "syntax error"}}) {
    INFO(c.sql);
    auto r = run_read_only_query(db, c.sql);
    CHECK_FALSE(r.ok);
    CHECK(r.error.rfind(db + ": ", 0) == 0);
    CHECK(r.error.find(c.says) != std::string::npos);
  }
  CHECK(tlscope::views::Database(db).scalar("SELECT count(*) FROM events") == before);
  CHECK_FALSE(std::filesystem::exists(other));
  CHECK(run_read_only_query(db, "PRAGMA table_info(events)").ok);  // reporting pragmas read
  auto missing = run_read_only_query(db + ".nope", "SELECT 1");
  CHECK(missing.error == db + ".nope: no such database file");
}
