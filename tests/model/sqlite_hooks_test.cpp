// The wrapper's pieces for running a person's SQL (tlscope query): a script walked one statement
// at a time, SQLite's own word on whether a statement writes, and an authorizer that lives as
// long as its hook.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/model/sqlite.hpp"

using tlscope::model::AuthorizerHook;
using tlscope::model::Connection;
using tlscope::model::SqliteError;
using tlscope::model::Statement;

TEST_CASE("Statement::first_of walks a script statement by statement, skipping comments") {
  Connection db(":memory:");
  db.exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2.5), ('a'), (NULL)");
  std::string_view script =
      "SELECT count(*) FROM t; -- a comment\n  SELECT x FROM t ORDER BY rowid;  ";
  std::optional<Statement> first = Statement::first_of(db.raw_handle(), script);
  REQUIRE(first);
  REQUIRE(first->step());
  CHECK(first->int64(0) == 4);
  CHECK(first->read_only());
  std::optional<Statement> second = Statement::first_of(db.raw_handle(), script);
  REQUIRE(second);
  std::vector<bool> numbers;
  while (second->step()) numbers.push_back(second->is_number(0));
  CHECK(numbers == std::vector<bool>{true, true, false, false});
  // What is left is whitespace: no statement, and the script is used up.
  CHECK_FALSE(Statement::first_of(db.raw_handle(), script));
  CHECK(script.empty());
  std::string_view bad = "SELEKT 1; SELECT 2";
  CHECK_THROWS_AS(Statement::first_of(db.raw_handle(), bad), SqliteError);
  std::string_view write = "DELETE FROM t";
  CHECK_FALSE(Statement::first_of(db.raw_handle(), write)->read_only());
}

TEST_CASE("AuthorizerHook refuses what its function refuses, and only while it lives") {
  Connection db(":memory:");
  db.exec("CREATE TABLE t(x); INSERT INTO t VALUES (1)");
  std::vector<std::string> read_tables;
  {
    AuthorizerHook hook(db.raw_handle(), [&](const AuthorizerHook::Action& a) {
      if (a.code == SQLITE_READ && a.arg1) read_tables.emplace_back(a.arg1);
      return a.code != SQLITE_DELETE;
    });
    Statement read(db.raw_handle(), "SELECT x FROM t");
    CHECK(read.step());
    CHECK(read_tables == std::vector<std::string>{"t"});
    try {
      Statement remove(db.raw_handle(), "DELETE FROM t");
      FAIL("a refused statement was prepared");
    } catch (const SqliteError& e) {
      CHECK_THAT(e.what(), Catch::Matchers::Contains("not authorized"));
    }
  }
  // The hook is gone: the same statement prepares and runs.
  Statement remove(db.raw_handle(), "DELETE FROM t");
  remove.run();
  CHECK(db.scalar_int("SELECT count(*) FROM t") == 0);
}
