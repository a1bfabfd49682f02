// tlscope merge: shards ingested separately, merged, equal one ingest of the same logs table by
// table (ids included); the inputs it must refuse, and an output that already exists.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "common/scratch_files.hpp"
#include "common/table_dump.hpp"
#include "model/store_queries.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/merge.hpp"
#include "tlscope/parser/reader.hpp"

using namespace tlscope;
using Catch::Matchers::Contains;
using model::Connection;
using model::OpenMode;

namespace {

namespace fs = std::filesystem;

const std::string kLogs = TLSCOPE_SHARED_LOGS;

fs::path scratch(const std::string& name) {
  return test::fresh_scratch("model_scratch", "merge_" + name);
}

void analyze(const fs::path& db_path) {
  Connection db(db_path.string(), OpenMode::kReadWrite);
  REQUIRE(model::analysis::analyze(db.handle()).ok);
}

// The files of `inputs` in the order one ingest takes them.
std::vector<std::string> planned_files(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const auto& s : parser::plan_inputs(inputs).sources) files.push_back(s.path);
  return files;
}

// Ingests each file of `inputs` into a shard of its own, merges the shards and checks the result
// against one ingest of `inputs`, every table (analysis tables too) row by row.
void check_per_file_merge(const std::string& name, const std::vector<std::string>& inputs) {
  fs::path dir = scratch(name);
  std::string whole = (dir / "whole.db").string();
  model::ingest(whole, inputs);
  analyze(whole);

  std::vector<std::string> shards;
  for (const std::string& file : planned_files(inputs)) {
    shards.push_back((dir / ("shard" + std::to_string(shards.size()) + ".db")).string());
    model::ingest(shards.back(), {file});
  }
  REQUIRE(shards.size() >= 3);
  std::string merged = (dir / "merged.db").string();
  model::MergeResult result = model::merge_databases(merged, shards);
  CHECK(result.fresh);
  CHECK(result.files.size() == shards.size());
  analyze(merged);
  auto a = test::dump_tables(whole);
  auto b = test::dump_tables(merged);
  CHECK(a.count("analysis_files") == 1);
  CHECK(a.at("events").size() > 100);
  INFO(test::first_difference(a, b));
  CHECK(test::first_difference(a, b).empty());
}

}  // namespace

TEST_CASE("merge: per-rank shards of the real multi-rank logs equal one ingest", "[merge]") {
  check_per_file_merge("multi_rank_logs", {kLogs + "/multi_rank_logs"});
  // Both real directories (seven ranks, two runs) as one job.
  check_per_file_merge("seven_ranks", {kLogs + "/multi_rank_logs", kLogs + "/multi_rank_schedule"});
}

TEST_CASE("merge: shared payloads and stacks, a repeated file and a missing input", "[merge]") {
  fs::path dir = scratch("shared");
  // copy.log has comp_failure.log's bytes: one ingest leaves it out as a repeat, and so must the
  // merge, though it sits in another shard. simple_corrupted_json.log shares most payloads and
  // stacks with simple.log.
  fs::copy_file(kLogs + "/comp_failure.log", dir / "copy.log");
  std::string missing = (dir / "no_such.log").string();
  std::vector<std::string> first = {kLogs + "/simple.log", kLogs + "/comp_failure.log"};
  std::vector<std::string> second = {(dir / "copy.log").string(),
                                     kLogs + "/simple_corrupted_json.log", missing};
  std::vector<std::string> all = first;
  all.insert(all.end(), second.begin(), second.end());

  std::string whole = (dir / "whole.db").string();
  model::ingest(whole, all);
  std::string a_db = (dir / "a.db").string(), b_db = (dir / "b.db").string();
  model::ingest(a_db, first);
  model::ingest(b_db, second);
  std::string merged = (dir / "merged.db").string();
  model::MergeResult result = model::merge_databases(merged, {a_db, b_db});
  REQUIRE(result.files.size() == 4);
  CHECK(result.files[2].path == second[0]);
  CHECK_THAT(result.files[2].duplicate_of, Contains("comp_failure.log"));
  {
    Connection db(merged, OpenMode::kReadOnly);
    CHECK(test::count(db, "SELECT count(*) FROM files") == 3);
    CHECK(test::count(db, "SELECT count(*) FROM ingest_errors WHERE file_id IS NULL") == 1);
    // Shared payloads are stored once: fewer rows than the two shards hold together.
    Connection a(a_db, OpenMode::kReadOnly), b(b_db, OpenMode::kReadOnly);
    CHECK(test::count(db, "SELECT count(*) FROM payloads") <
          test::count(a, "SELECT count(*) FROM payloads") +
              test::count(b, "SELECT count(*) FROM payloads"));
    CHECK(test::count(db, "SELECT count(*) FROM payloads") ==
          test::count(db, "SELECT count(DISTINCT md5) FROM payloads"));
  }
  analyze(whole);
  analyze(merged);
  auto x = test::dump_tables(whole);
  auto y = test::dump_tables(merged);
  INFO(test::first_difference(x, y));
  CHECK(test::first_difference(x, y).empty());

  SECTION("merging into an existing output adds only what is new") {
    model::MergeResult again = model::merge_databases(merged, {b_db});
    CHECK_FALSE(again.fresh);
    for (const auto& f : again.files) CHECK_FALSE(f.duplicate_of.empty());
    auto z = test::dump_tables(merged);
    // Only the file-less problem row of b.db is added again (a problem is not a file).
    CHECK(z.at("ingest_errors").size() == y.at("ingest_errors").size() + 1);
    CHECK(z.at("events") == y.at("events"));
    CHECK(z.at("files") == y.at("files"));
  }
}

TEST_CASE("merge: refuses what it cannot merge, writing nothing", "[merge]") {
  fs::path dir = scratch("refused");
  std::string good = (dir / "good.db").string();
  model::ingest(good, {kLogs + "/links.log"});
  std::string out = (dir / "out.db").string();

  auto refused = [&](const std::vector<std::string>& shards, const std::string& output) {
    try {
      model::merge_databases(output, shards);
    } catch (const model::MergeRefused& e) {
      return std::string(e.what());
    }
    FAIL("merge was not refused");
    return std::string();
  };

  test::spit(dir / "notes.txt", "not a database\n");
  CHECK_THAT(refused({good, (dir / "notes.txt").string()}, out),
             Contains("notes.txt") && Contains("not a tlscope database"));
  {
    Connection other((dir / "other.db").string());
    other.exec("CREATE TABLE t(x)");
  }
  CHECK_THAT(refused({(dir / "other.db").string()}, out), Contains("not a tlscope one"));
  fs::copy_file(good, dir / "old.db");
  {
    Connection old((dir / "old.db").string(), OpenMode::kReadWrite);
    old.exec("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
  }
  CHECK_THAT(refused({good, (dir / "old.db").string()}, out),
             Contains("old.db") && Contains("schema version 1"));
  CHECK_THAT(refused({(dir / "missing.db").string()}, out), Contains("no such file"));
  CHECK_THAT(refused({good, good}, out), Contains("named twice"));
  CHECK_FALSE(fs::exists(out));
  CHECK(test::dump_tables(good) == test::dump_tables(good));
  auto before = test::dump_tables(good);
  CHECK_THAT(refused({good}, good), Contains("the output database itself"));
  CHECK(test::dump_tables(good) == before);
  // Nothing beside the output either: no temporary database was begun.
  for (const auto& e : fs::directory_iterator(dir)) {
    CHECK(e.path().filename().string().find(".ingest-") == std::string::npos);
  }
}

// A shard's event ids are whatever its file says: ids near either end of int64 would overflow the
// renumbering (undefined behaviour before; a Release build wrapped and SQLite then failed or stored
// wrong ids). The merge refuses such a shard, names it, and writes no output.
TEST_CASE("merge: refuses a shard whose event ids cannot be renumbered", "[merge][hostile]") {
  fs::path dir = scratch("huge_ids");
  std::string good = (dir / "good.db").string();
  model::ingest(good, {kLogs + "/links.log"});
  struct Hostile {
    const char* name;
    const char* sql;
  };
  for (const Hostile& h :
       {Hostile{"top.db",
                "UPDATE events SET id = 9223372036854775807 WHERE id = (SELECT max(id) "
                "FROM events)"},
        Hostile{"bottom.db",
                "UPDATE events SET id = -9223372036854775807 - 1 WHERE id = (SELECT "
                "min(id) FROM events)"}}) {
    DYNAMIC_SECTION(h.name) {
      std::string bad = (dir / h.name).string();
      fs::copy_file(good, bad, fs::copy_options::overwrite_existing);
      {
        Connection c(bad, OpenMode::kReadWrite);
        c.exec(h.sql);
        // Not a repeat of good.db's file, which the merge would skip without copying.
        c.exec("UPDATE files SET content_hash = 'hostile'");
      }
      std::string out = (dir / (std::string("out-") + h.name)).string();
      std::string message;
      try {
        model::merge_databases(out, {good, bad});
      } catch (const model::MergeRefused& e) {
        message = e.what();
      }
      CHECK_THAT(message, Contains(h.name) && Contains("event ids"));
      CHECK_FALSE(fs::exists(out));
    }
  }
}
