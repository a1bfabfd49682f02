// The empty database embedded at build time (model::schema_template) against the CREATE
// statements it replaces for a fresh ingest: the same sqlite_master (rootpages included), the
// same meta rows and file settings, and databases ingested from it that are as readable and
// appendable as before.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "common/sql_rows.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/schema.hpp"

using namespace tlscope;

namespace {

const std::string kTemplateLogs = TLSCOPE_SHARED_LOGS;

// What must agree between two databases made different ways, one query per line.
// Rootpages only for empty databases: an index built after a load lands past its table's rows.
std::vector<std::string> layout(const std::string& path, bool rootpages = true) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  std::vector<std::string> out;
  for (const char* sql :
       {rootpages ? "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid"
                  : "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid",
        "SELECT key, value FROM meta ORDER BY key", "PRAGMA page_size", "PRAGMA schema_version",
        "PRAGMA user_version", "PRAGMA application_id", "PRAGMA auto_vacuum", "PRAGMA encoding",
        "PRAGMA integrity_check"}) {
    for (std::string& row : test::sql_rows(db, sql)) out.push_back(sql + (": " + row));
  }
  sqlite3_close(db);
  return out;
}

// A database made by the statements, as a fresh ingest made it before the template: the tables,
// then (after a load, here of nothing) the indexes.
std::string by_statements(const std::filesystem::path& dir, bool indexes) {
  std::string path = (dir / (indexes ? "with_indexes.db" : "statements.db")).string();
  model::Connection db(path);
  model::apply_bulk_load_pragmas(db);
  model::create_schema(db);
  if (indexes) model::create_indexes(db);
  return path;
}

}  // namespace

TEST_CASE("schema template: the same empty database as the CREATE statements") {
  auto dir = test::fresh_scratch("model", "schema_template_empty");
  std::string statements = by_statements(dir, false);
  std::string image = model::schema_template();
  REQUIRE(image.size() % 16384 == 0);
  test::spit(dir / "template.db", image);
  std::vector<std::string> expected = layout(statements);
  // Every table, the views and meta's key index, the two meta rows, the pragmas, "ok".
  CHECK(expected.size() > 25);
  CHECK(layout((dir / "template.db").string()) == expected);
  CHECK(model::schema_template() == image);  // rebuilt the same on every call
}

TEST_CASE("schema template: a fresh ingest starts from it, and appends to it as before") {
  auto dir = test::fresh_scratch("model", "schema_template_ingest");
  std::vector<std::string> expected = layout(by_statements(dir, true), false);
  std::string db = (dir / "fresh.db").string();
  model::IngestResult first = model::ingest(db, {kTemplateLogs + "/simple.log"});
  CHECK(first.fresh);
  CHECK(first.events > 0);
  // The statements' tables, then their indexes; integrity_check reads every page and index.
  CHECK(layout(db, false) == expected);
  model::IngestResult second = model::ingest(db, {kTemplateLogs + "/chromium_events.log"});
  CHECK_FALSE(second.fresh);
  CHECK(second.events > 0);
  CHECK(layout(db, false) == expected);
}
