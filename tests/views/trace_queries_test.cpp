// Query helpers over a hand-built database holding rows copied from the real PyTorch logs.
#include <catch2/catch.hpp>
#include <fstream>
#include <memory>

#include "tlscope/views/compile_row.hpp"
#include "tlscope/views/ingest_errors.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/trace_queries.hpp"
#include "views/schema_fixture.hpp"

using namespace tlscope::views;

namespace {

std::string fixture_path(const std::string& name) {
  return std::string(TLSCOPE_BINARY_DIR) + "/tests/" + name;
}

std::unique_ptr<Database> open_fixture(const std::string& name) {
  std::string path = tlscope::test::make_fixture_db(fixture_path(name));
  auto db = std::make_unique<Database>(path);
  INFO(db->error());
  REQUIRE(db->ok());
  return db;
}

}  // namespace

TEST_CASE("Trace summary counts files, events per kind and ingest errors") {
  auto db_owner = open_fixture("views_summary.db");
  const Database& db = *db_owner;
  auto s = load_summary(db);
  REQUIRE(s.ok());
  REQUIRE(s->files.size() == 2);
  CHECK(s->files[0].path == "chromium_events.log");
  CHECK(s->files[0].rank == -1);
  CHECK(s->events == 11);
  REQUIRE(s->kinds.size() == 5);
  CHECK(s->kinds[0].kind == "chromium_event");
  CHECK(s->kinds[0].count == 6);
  CHECK(s->errors == 2);
}

TEST_CASE("Compile rows, ingest errors and tensors read back from the fixture") {
  auto db_owner = open_fixture("views_rows.db");
  const Database& db = *db_owner;
  auto compiles_read = load_compile_rows(db);
  REQUIRE(compiles_read.ok());
  const auto& compiles = *compiles_read;
  REQUIRE(compiles.size() == 1);
  CHECK(compiles[0].compile_id == "0/0");
  CHECK(compiles[0].co_firstlineno == 10755);
  CHECK(compiles[0].fail_type == "BackendCompilerFailed");
  CHECK(compiles[0].graph_op_count == -1);
  CHECK(compiles[0].duration_us == -1);
  auto errors_read = load_ingest_errors(db, Page{0, 100});
  REQUIRE(errors_read.ok());
  const auto& errors = errors_read->rows;
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].path == "chromium_events.log");
  CHECK(errors[0].line == 77);
  CHECK(errors[1].path.empty());
  CHECK(load_ingest_errors(db, Page{0, 1})->rows.size() == 1u);
  auto tensors_read = load_tensors(db);
  CHECK(tensors_read.ok());
  auto tensors = tensors_read.value;
  REQUIRE(tensors.size() == 2);
  REQUIRE(tensors[0].shape);
  CHECK(*tensors[0].shape == std::vector<int64_t>{1, 320, 128, 128});
  CHECK_FALSE(tensors[1].shape);
  CHECK(tensors[1].shape_error == "symbolic size s0");
}

TEST_CASE("Database reports missing files and non-databases, and missing tables read empty") {
  Database missing(fixture_path("no_such.db"));
  CHECK_FALSE(missing.ok());
  CHECK(missing.error().find("no_such.db") != std::string::npos);
  std::string junk = fixture_path("views_junk.db");
  std::ofstream(junk) << "this is not a database, just text long enough to have a header.....";
  Database not_db(junk);
  CHECK_FALSE(not_db.ok());
  CHECK(not_db.error().rfind(junk, 0) == 0);
  // A directory is not a regular file: refused before SQLite is asked.
  Database dir(std::string(TLSCOPE_BINARY_DIR));
  CHECK_FALSE(dir.ok());
  CHECK(dir.error().find("not a regular file") != std::string::npos);
  // An empty SQLite file has no tables: every loader returns nothing and no error.
  std::string empty = fixture_path("views_empty.db");
  std::filesystem::remove(empty);
  sqlite3* raw = nullptr;
  sqlite3_open(empty.c_str(), &raw);
  tlscope::test::exec_sql(raw, "CREATE TABLE unrelated(x)");
  sqlite3_close(raw);
  Database db(empty);
  REQUIRE(db.ok());
  CHECK(load_compile_rows(db)->empty());
  auto tensors = load_tensors(db);
  CHECK(tensors.ok());
  CHECK(tensors->empty());
  auto s = load_summary(db);
  REQUIRE(s.ok());
  CHECK(s->files.empty());
}
