// store_health: which files are incomplete, and whether the analysis still covers every file as
// `analysis_files` recorded it.
#include <catch2/catch.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "common/scratch_files.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/store_health.hpp"
#include "views/schema_fixture.hpp"

using namespace tlscope;
namespace fs = std::filesystem;
using Health = views::StoreHealth;

namespace {

// Two complete files; `analysed` adds the findings table and the analysis' record of them.
std::string make_db(const std::string& name, bool analysed) {
  std::string path = (test::fresh_scratch("views_scratch", name) / "t.db").string();
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  test::exec_sql(db,
                 "CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT, events INTEGER, "
                 "completed INTEGER);"
                 "INSERT INTO files VALUES(1, 'rank_0.log', 20, 1), (2, 'rank_1.log', 30, 1);");
  if (analysed) {
    test::exec_sql(db,
                   "CREATE TABLE findings(id INTEGER PRIMARY KEY, kind TEXT);"
                   "CREATE TABLE analysis_files AS SELECT id AS file_id, events, completed "
                   "FROM files;");
  }
  sqlite3_close(db);
  return path;
}

void change(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  test::exec_sql(db, sql);
  sqlite3_close(db);
}

Health health_of(const std::string& path) {
  views::Database db(path);
  REQUIRE(db.ok());
  return views::store_health(db);
}

}  // namespace

TEST_CASE("store_health: an analysis of every file as it is now is current") {
  Health h = health_of(make_db("current", true));
  CHECK(h.analysis == Health::Analysis::kCurrent);
  CHECK(h.incomplete_files.empty());
  CHECK(h.warnings("t.db").empty());
}

TEST_CASE("store_health: no findings table means not analysed, which is no warning") {
  Health h = health_of(make_db("none", false));
  CHECK(h.analysis == Health::Analysis::kNone);
  CHECK(h.warnings("t.db").empty());
}

TEST_CASE("store_health: a file added, grown or replaced since the analysis makes it stale") {
  std::string path = make_db("stale", true);
  SECTION("added") {
    change(path, "INSERT INTO files VALUES(3, 'rank_2.log', 5, 1)");
    Health h = health_of(path);
    CHECK(h.analysis == Health::Analysis::kStale);
    CHECK(h.files_not_analysed == std::vector<std::string>{"rank_2.log"});
    REQUIRE(h.warnings("t.db").size() == 1);
    CHECK_THAT(h.warnings("t.db")[0], Catch::Contains("STALE") && Catch::Contains("rank_2.log") &&
                                          Catch::Contains("tlscope analyze t.db"));
  }
  SECTION("an incomplete file completed since") {
    change(path, "UPDATE analysis_files SET completed = 0, events = 3 WHERE file_id = 2");
    Health h = health_of(path);
    CHECK(h.analysis == Health::Analysis::kStale);
    CHECK(h.files_not_analysed == std::vector<std::string>{"rank_1.log"});
  }
  SECTION("a file it covered is gone") {
    change(path, "DELETE FROM files WHERE id = 1");
    Health h = health_of(path);
    CHECK(h.analysis == Health::Analysis::kStale);
    CHECK(h.files_not_analysed.empty());
    CHECK(h.analysed_files_gone == 1);
  }
  SECTION("analysed by a tlscope that did not record what it covered") {
    change(path, "DROP TABLE analysis_files");
    CHECK(health_of(path).analysis == Health::Analysis::kStale);
  }
}

TEST_CASE("store_health: incomplete files are named, in ingest order") {
  std::string path = make_db("incomplete", false);
  change(path, "UPDATE files SET completed = 0");
  Health h = health_of(path);
  CHECK(h.incomplete_files == std::vector<std::string>{"rank_0.log", "rank_1.log"});
  std::vector<std::string> w = h.warnings("t.db");
  REQUIRE(w.size() == 2);
  CHECK_THAT(w[0], Catch::StartsWith("rank_0.log is INCOMPLETE"));
}

TEST_CASE("store_health: a reader during an append sees the file being written as incomplete") {
  fs::path dir = test::fresh_scratch("views_scratch", "during_append");
  std::string db = (dir / "t.db").string();
  const std::string logs = TLSCOPE_SHARED_LOGS;
  model::ingest(db, {logs + "/simple.log"});
  // Longer than one 4 MiB parse batch, so the writer reports progress before the file ends.
  std::string rank1 = test::slurp(logs + "/multi_rank_logs/dedicated_log_torch_trace_rank_1.log");
  std::string two = (dir / "two_rank1.log").string();
  test::spit(two, rank1 + rank1);
  model::IngestOptions options;
  int reads = 0;
  options.progress = [&](const model::IngestProgress&) {
    // What `tlscope report` opens: never "database is locked" while an ingest appends.
    views::Database reader(db);
    REQUIRE(reader.ok());
    Health h = views::store_health(reader);
    if (!h.incomplete_files.empty()) {
      CHECK(h.incomplete_files == std::vector<std::string>{two});
      ++reads;
    }
  };
  model::ingest(db, {two}, options);
  CHECK(reads > 0);
  views::Database after(db);
  CHECK(views::store_health(after).incomplete_files.empty());
}
