// IngestOptions::before_publish: work done on a new database's own ingest connection before the
// file is renamed into place (the one-command report runs the analysis there), never for an
// append, and a failure there leaves no database, as a failed ingest does.
#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "common/scratch_files.hpp"
#include "model/store_queries.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope;
using model::Connection;
using model::OpenMode;
using test::count;

namespace {

namespace fs = std::filesystem;

const std::string kSimple = std::string(TLSCOPE_SHARED_LOGS) + "/simple.log";

// Files beside `db` whose name starts with its own (the temporary ingest files).
int files_named_after(const fs::path& db) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(db.parent_path()))
    if (entry.path().filename().string().rfind(db.filename().string(), 0) == 0) ++n;
  return n;
}

}  // namespace

TEST_CASE("before_publish sees the finished rows before the database appears at its path") {
  fs::path db = test::fresh_scratch("model_scratch", "before_publish") / "job.db";
  int calls = 0;
  int64_t events_seen = -1, indexes_seen = -1;
  model::IngestOptions options;
  options.before_publish = [&](Connection& c, const model::IngestResult& so_far) {
    ++calls;
    CHECK_FALSE(fs::exists(db));  // still under its temporary name
    events_seen = count(c, "SELECT count(*) FROM events");
    CHECK(so_far.events == static_cast<uint64_t>(events_seen));
    // The indexes are built before, so what runs here reads them as the analysis would.
    indexes_seen = count(c, "SELECT count(*) FROM sqlite_master WHERE name = 'events_kind'");
    c.exec("INSERT INTO meta VALUES('written_before_publish', 'yes')");
  };
  model::IngestResult r = model::ingest(db.string(), {kSimple}, options);
  CHECK(calls == 1);
  CHECK(r.fresh);
  // simple.log has 76 records (76 lines that begin with a glog prefix).
  CHECK(events_seen == 76);
  CHECK(indexes_seen == 1);
  REQUIRE(fs::exists(db));
  Connection published(db.string(), OpenMode::kReadOnly);
  CHECK(count(published, "SELECT count(*) FROM meta WHERE key = 'written_before_publish'") == 1);
  CHECK(count(published, "SELECT count(*) FROM events") == 76);

  SECTION("an append does not call it") {
    model::ingest(db.string(), {kSimple}, options);
    CHECK(calls == 1);
  }
}

TEST_CASE("A throw in before_publish reaches the caller and leaves no database") {
  fs::path db = test::fresh_scratch("model_scratch", "before_publish_throws") / "job.db";
  model::IngestOptions options;
  options.before_publish = [](Connection&, const model::IngestResult&) {
    throw std::runtime_error("analysis failed on purpose");
  };
  CHECK_THROWS_WITH(model::ingest(db.string(), {kSimple}, options),
                    Catch::Matchers::Contains("on purpose"));
  CHECK_FALSE(fs::exists(db));
  CHECK(files_named_after(db) == 0);  // nor its temporary file
}
