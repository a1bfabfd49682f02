// Database::has_table answers from the connection's schema when it can (no statement to compile)
// and from sqlite_master otherwise: views, absent names, and tables another connection created
// after this one read the schema (the report runs the analysis through a connection of its own,
// then reads the new tables through its first one).
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <string>

#include "common/scratch_files.hpp"
#include "tlscope/views/database.hpp"
#include "views/schema_fixture.hpp"

using namespace tlscope;

TEST_CASE("has_table: tables, views, absent names and tables created since the schema was read") {
  std::string path = (test::fresh_scratch("views_scratch", "schema_probe") / "t.db").string();
  sqlite3* writer = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &writer) == SQLITE_OK);
  test::exec_sql(writer,
                 "CREATE TABLE events(id INTEGER PRIMARY KEY);"
                 "CREATE VIEW stack_frames AS SELECT id FROM events;");

  views::Database db(path);
  REQUIRE(db.ok());
  CHECK(db.has_table("events"));
  CHECK(db.has_table("stack_frames"));  // a view counts
  CHECK_FALSE(db.has_table("findings"));
  CHECK_FALSE(db.has_table(""));

  // Written through another connection after `db` read the schema (its Database probe did).
  test::exec_sql(writer, "CREATE TABLE findings(id INTEGER PRIMARY KEY);");
  CHECK(db.has_table("findings"));
  CHECK(db.scalar("SELECT count(*) FROM findings") == 0);  // and the table reads
  sqlite3_close(writer);
}
