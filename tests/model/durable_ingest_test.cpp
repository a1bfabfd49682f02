// Ingest that puts nothing at risk: a new database appears only when complete, an append goes
// through a write-ahead log that readers can read past, a second writer is refused, a re-ingest
// replaces an incomplete file, analyze records what it covered, and a file that is not a database
// (or a damaged one) gets a message instead of an exception.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>

#include "common/scratch_files.hpp"
#include "model/store_queries.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/event_writer.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/merge.hpp"
#include "tlscope/model/schema.hpp"

using namespace tlscope;
using Catch::Matchers::Contains;
using model::Connection;
using model::OpenMode;
using test::count;
using test::text;

namespace {

namespace fs = std::filesystem;

const std::string kLogs = TLSCOPE_SHARED_LOGS;
// Two logs that share most payloads (the second is the first with one record damaged).
const std::string kDurableSimple = kLogs + "/simple.log";
const std::string kCorrupted = kLogs + "/simple_corrupted_json.log";

fs::path scratch(const std::string& name) {
  return test::fresh_scratch("model_scratch", name);
}

// Rows per ingest table: two databases holding the same files must agree on every one. (`stacks`
// is left out: a stack is shared within one ingest run only, so two runs may store one twice;
// the frames each event sees, `stack_frames`, are what must agree.)
std::map<std::string, int64_t> table_rows(const std::string& path) {
  Connection db(path, OpenMode::kReadOnly);
  std::map<std::string, int64_t> rows;
  for (std::string table : {"files", "events", "payloads", "strings", "stack_frames",
                            "event_stacks", "ingest_errors", "chromium_event_rows"}) {
    rows[table] = count(db, "SELECT count(*) FROM " + table);
  }
  for (std::string_view table : model::kPerEventTables) {
    rows[std::string(table)] = count(db, "SELECT count(*) FROM " + std::string(table));
  }
  return rows;
}

std::string describe(const std::map<std::string, int64_t>& rows) {
  std::string s;
  for (const auto& [table, n] : rows) s += table + "=" + std::to_string(n) + " ";
  return s;
}

// Files in `dir` whose name starts with `prefix`.
std::vector<std::string> names_starting(const fs::path& dir, const std::string& prefix) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0) names.push_back(name);
  }
  return names;
}

// Holds an exclusive flock on a file, as a running ingest does on its database.
struct HeldLock {
  int fd;
  explicit HeldLock(const fs::path& p) : fd(::open(p.c_str(), O_RDONLY | O_CLOEXEC)) {
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  }
  ~HeldLock() { ::close(fd); }
};

}  // namespace

TEST_CASE("a re-ingest replaces the rows of a file whose ingest did not complete") {
  fs::path dir = scratch("replace_incomplete");
  std::string ref = (dir / "ref.db").string(), db = (dir / "t.db").string();
  model::ingest(ref, {kDurableSimple, kCorrupted});
  model::ingest(db, {kDurableSimple, kCorrupted});
  {
    // What a killed ingest of the first file leaves: its rows, completed never set. Its payloads
    // are shared with the second file, which must keep them.
    Connection c(db, OpenMode::kReadWrite);
    c.exec("UPDATE files SET completed = 0 WHERE id = 1");
  }
  model::IngestResult again = model::ingest(db, {kDurableSimple});
  // Files are named as the kernel resolves them (TLSCOPE_SHARED_LOGS holds a `..`).
  const std::string simple = fs::canonical(kDurableSimple).string();
  CHECK(again.replaced == std::vector<std::string>{simple});
  CHECK(again.events == 76);
  // Exactly the rows of one ingest of both files: nothing of the old copy stayed, nothing of the
  // other file went.
  CHECK(describe(table_rows(db)) == describe(table_rows(ref)));
  Connection c(db, OpenMode::kReadOnly);
  CHECK(count(c, "SELECT count(*) FROM files WHERE completed = 1") == 2);
  CHECK(count(c,
              "SELECT count(*) FROM events e JOIN files f ON f.id = e.file_id "
              "WHERE f.path = '" +
                  simple + "'") == 76);
  CHECK(count(c,
              "SELECT count(*) FROM events WHERE payload_id IS NOT NULL AND payload_id NOT IN "
              "(SELECT id FROM payloads)") == 0);
  CHECK(count(c,
              "SELECT count(*) FROM event_stacks WHERE stack_id NOT IN "
              "(SELECT stack_id FROM stacks)") == 0);
  CHECK(text(c, "PRAGMA integrity_check") == "ok");
}

TEST_CASE("a completed file under the same path is never replaced") {
  fs::path dir = scratch("keep_completed");
  std::string db = (dir / "t.db").string();
  model::ingest(db, {kDurableSimple});
  auto before = table_rows(db);
  model::IngestResult again = model::ingest(db, {kDurableSimple});
  CHECK(again.replaced.empty());
  CHECK(table_rows(db) == before);
}

TEST_CASE("an unfinished file's counts are committed as the writer goes") {
  Connection db(":memory:");
  model::open_for_ingest(db);
  model::EventWriter w(db);
  parser::SourceInfo source;
  source.path = "a.log";
  w.begin_file(source);
  parser::Event e;
  e.kind = "some_kind";
  e.metadata = "{}";
  for (int i = 1; i <= 3; ++i) {
    e.line = static_cast<uint64_t>(i);
    w.add_event(e);
  }
  w.checkpoint();
  // A kill now leaves the file incomplete with the events written so far, not "0 events".
  CHECK(count(db, "SELECT events FROM files") == 3);
  CHECK(count(db, "SELECT completed FROM files") == 0);
}

TEST_CASE("a new database appears at its path only when its ingest is complete") {
  fs::path dir = scratch("fresh_temp");
  std::string db = (dir / "t.db").string();
  model::IngestOptions options;
  int calls = 0;
  options.progress = [&](const model::IngestProgress&) {
    ++calls;
    CHECK_FALSE(fs::exists(db));
    CHECK(names_starting(dir, "t.db.ingest-").size() == 1);
  };
  model::IngestResult r = model::ingest(db, {kDurableSimple}, options);
  CHECK(calls > 0);
  CHECK(r.fresh);
  CHECK(fs::exists(db));
  CHECK(names_starting(dir, "t.db.ingest-").empty());
  Connection c(db, OpenMode::kReadOnly);
  CHECK(count(c, "SELECT count(*) FROM events") == 76);
}

TEST_CASE("temporary databases of killed ingests are removed, those of running ones kept") {
  fs::path dir = scratch("leftovers");
  std::string db = (dir / "t.db").string();
  test::spit(dir / "t.db.ingest-killed01", "half a database");
  test::spit(dir / "t.db.ingest-running", "being written");
  test::spit(dir / "other.db.ingest-killed02", "another database's");
  HeldLock running(dir / "t.db.ingest-running");
  model::IngestResult r = model::ingest(db, {kDurableSimple});
  CHECK(r.removed_leftovers == std::vector<std::string>{(dir / "t.db.ingest-killed01").string()});
  CHECK_FALSE(fs::exists(dir / "t.db.ingest-killed01"));
  CHECK(fs::exists(dir / "t.db.ingest-running"));
  CHECK(fs::exists(dir / "other.db.ingest-killed02"));
}

TEST_CASE("a second ingest into a database being written is refused with a message") {
  fs::path dir = scratch("second_writer");
  std::string db = (dir / "t.db").string();
  model::ingest(db, {kDurableSimple});
  auto before = table_rows(db);
  {
    HeldLock writer(db);
    REQUIRE_THROWS_WITH(model::ingest(db, {kCorrupted}), Contains("another tlscope ingest"));
  }
  CHECK(table_rows(db) == before);
}

TEST_CASE(
    "an append or merge into a database of another schema version leaves its bytes as they were") {
  fs::path dir = scratch("other_version");
  std::string db = (dir / "t.db").string();
  model::ingest(db, {kDurableSimple});
  {
    Connection c(db, OpenMode::kReadWrite);
    c.exec("UPDATE meta SET value = '2' WHERE key = 'schema_version'");
  }
  const std::string before = test::slurp(db);
  REQUIRE_THROWS_WITH(model::ingest(db, {kCorrupted}), Contains("schema version 2"));
  // Not even switched to WAL (header bytes 18-19) before the refusal.
  CHECK(test::slurp(db) == before);
  CHECK_FALSE(fs::exists(db + "-wal"));
  std::string shard = (dir / "shard.db").string();
  model::ingest(shard, {kCorrupted});
  REQUIRE_THROWS_WITH(model::merge_databases(db, {shard}), Contains("schema version 2"));
  CHECK(test::slurp(db) == before);
}

TEST_CASE("an append goes through a write-ahead log that readers read past") {
  fs::path dir = scratch("append_wal");
  std::string db = (dir / "t.db").string();
  model::ingest(db, {kDurableSimple});
  model::IngestOptions options;
  int calls = 0;
  options.progress = [&](const model::IngestProgress&) {
    ++calls;
    // A reader (summary, report) is not locked out while the append runs: it sees the last
    // commit, the first file complete.
    Connection reader(db, OpenMode::kReadOnly);
    CHECK(text(reader, "PRAGMA journal_mode") == "wal");
    CHECK(count(reader, "SELECT completed FROM files WHERE id = 1") == 1);
  };
  model::IngestResult r = model::ingest(db, {kCorrupted}, options);
  CHECK(calls > 0);
  CHECK_FALSE(r.fresh);
  // Done: back to one file with a rollback journal.
  CHECK_FALSE(fs::exists(db + "-wal"));
  Connection c(db, OpenMode::kReadOnly);
  CHECK(text(c, "PRAGMA journal_mode") == "delete");
  CHECK(count(c, "SELECT count(*) FROM files WHERE completed = 1") == 2);
}

TEST_CASE("analyze records which files it covered") {
  fs::path dir = scratch("coverage");
  std::string db = (dir / "t.db").string();
  model::ingest(db, {kDurableSimple, kCorrupted});
  Connection c(db, OpenMode::kReadWrite);
  REQUIRE(model::analysis::analyze(c.handle()).ok);
  CHECK(count(c, "SELECT count(*) FROM analysis_files") == 2);
  CHECK(count(c,
              "SELECT count(*) FROM (SELECT id, events, completed FROM files EXCEPT "
              "SELECT file_id, events, completed FROM analysis_files)") == 0);
}

TEST_CASE("analyze on a file that is not a database says so instead of throwing") {
  fs::path dir = scratch("not_a_db");
  test::spit(dir / "passwd", "root:x:0:0:root:/root:/bin/bash\n");
  Connection c((dir / "passwd").string(), OpenMode::kReadWrite);
  model::analysis::AnalysisReport r;
  REQUIRE_NOTHROW(r = model::analysis::analyze(c.handle()));
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.error, Contains("not a tlscope database"));
}

TEST_CASE("a damaged database's message says how it most likely happened") {
  fs::path dir = scratch("damaged");
  std::string db = (dir / "t.db").string();
  model::ingest(db, {kDurableSimple, kCorrupted});
  fs::resize_file(db, fs::file_size(db) / 2);
  Connection c(db, OpenMode::kReadOnly);
  REQUIRE_THROWS_WITH(c.exec("PRAGMA integrity_check; SELECT count(*), sum(length(text)) FROM "
                             "payloads; SELECT count(*) FROM events"),
                      Contains("malformed") && Contains("killed"));
}

TEST_CASE("a database path that is not a regular file is refused before anything opens it") {
  fs::path dir = scratch("not_regular");
  fs::create_directory(dir / "t.db");
  REQUIRE_THROWS_WITH(model::ingest((dir / "t.db").string(), {kDurableSimple}),
                      Contains("not a regular file"));
  CHECK(fs::is_empty(dir / "t.db"));
}

namespace {

// simple.log `copies` times over in one file: a file of several 4 MiB batches.
std::string big_log(const fs::path& dir, int copies) {
  const std::string one = test::slurp(kDurableSimple);
  std::string all;
  for (int i = 0; i < copies; ++i) all += one;
  fs::path p = dir / "big.log";
  test::spit(p, all);
  return p.string();
}

// An ingest whose cancel answers true from its `stop_at`-th question on; counts the questions.
struct CancelAfter {
  int stop_at;
  int asked = 0;
  model::IngestOptions options() {
    model::IngestOptions o;
    o.cancelled = [this] { return ++asked >= stop_at; };
    return o;
  }
};

}  // namespace

TEST_CASE("a cancelled ingest into a new database leaves no database and no temporary file") {
  fs::path dir = scratch("cancel_fresh");
  const std::string big = big_log(dir, 40);  // ~10 MB: three batches
  const std::string db = (dir / "t.db").string();
  CancelAfter cancel{1};
  CHECK_THROWS_AS(model::ingest(db, {big, kDurableSimple}, cancel.options()),
                  model::IngestCancelled);
  // Asked after the first batch (and once more to tell the cancel from a failure), never after
  // the other batches of the file.
  CHECK(cancel.asked <= 2);
  CHECK_FALSE(fs::exists(db));
  CHECK(names_starting(dir, "t.db").empty());
  // The next ingest into that path builds it whole.
  model::IngestResult r = model::ingest(db, {kDurableSimple});
  CHECK(r.fresh);
  CHECK(r.events == 76);
}

TEST_CASE("a cancel while the indexes are built interrupts SQLite and keeps nothing") {
  fs::path dir = scratch("cancel_indexes");
  const std::string big = big_log(dir, 40);  // enough rows for an index build of many VM steps
  const std::string db = (dir / "t.db").string();
  // First learn how many batches the ingest writes (it asks once after each)...
  int batches = 0;
  model::IngestOptions o;
  o.progress = [&](const model::IngestProgress&) { ++batches; };
  model::ingest((dir / "count.db").string(), {big}, o);
  REQUIRE(batches >= 2);
  // ...then answer "go on" to each of those: only SQLite's progress handler, asked while the
  // indexes are built, hears "stop", so the cancel can only come through it.
  CancelAfter late{batches + 1};
  CHECK_THROWS_AS(model::ingest(db, {big}, late.options()), model::IngestCancelled);
  CHECK(late.asked > batches);
  CHECK_FALSE(fs::exists(db));
  CHECK(names_starting(dir, "t.db").empty());
}

TEST_CASE("a cancelled append takes this run's files out again and keeps the earlier ones") {
  fs::path dir = scratch("cancel_append");
  const std::string big = big_log(dir, 40);
  const std::string db = (dir / "t.db").string();
  model::ingest(db, {kCorrupted});
  const auto before = table_rows(db);
  // Stopped after simple.log is complete and mid-way through the big file: neither stays.
  int batches = 0;
  model::IngestOptions o;
  o.progress = [&](const model::IngestProgress& p) { batches += p.files_done == 1 ? 1 : 0; };
  o.cancelled = [&] { return batches >= 2; };
  CHECK_THROWS_AS(model::ingest(db, {kDurableSimple, big}, o), model::IngestCancelled);
  CHECK(describe(table_rows(db)) == describe(before));
  Connection c(db, OpenMode::kReadOnly);
  CHECK(text(c, "SELECT group_concat(path) FROM files") == fs::canonical(kCorrupted).string());
  CHECK(text(c, "PRAGMA integrity_check") == "ok");
  CHECK(text(c, "PRAGMA journal_mode") == "delete");  // the append's WAL is closed again
}

TEST_CASE("progress counts files, events and errors as the batches are written") {
  fs::path dir = scratch("progress_counts");
  std::vector<model::IngestProgress> seen;
  model::IngestOptions o;
  o.progress = [&](const model::IngestProgress& p) { seen.push_back(p); };
  model::IngestResult r = model::ingest((dir / "t.db").string(), {kDurableSimple, kCorrupted}, o);
  REQUIRE(seen.size() >= 2);
  CHECK(seen.front().files_total == 2);
  CHECK(seen.front().files_done == 1);  // each of these small files is one batch
  CHECK(seen.back().files_done == 2);
  CHECK(seen.back().events == r.events);
  CHECK(seen.back().errors >= 1);  // the corrupted record
  CHECK(seen.back().errors <= r.errors);
}
