// Every reading command takes logs or a database (model/input_cache.hpp): logs are ingested once
// into the cache, reused while unchanged, rebuilt when they change; --db names the database; a
// missing input leaves nothing behind.
#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

namespace {

fs::path copy_log(const fs::path& dir, const std::string& name) {
  fs::path to = dir / name;
  fs::copy_file(kLogs + "/" + name, to, fs::copy_options::overwrite_existing);
  return to;
}

}  // namespace

TEST_CASE(
    "reading: summary, export and tensor take a log, cached once, reused, rebuilt on change") {
  fs::path dir = scratch("read_log");
  fs::path log = copy_log(dir, "simple.log");
  RunResult first = tlscope_in(dir, "summary " + q(log.string()));
  REQUIRE(first.exit_code == 0);
  CHECK(contains(first.out, "simple.log"));
  CHECK(contains(first.err, "ingested 1 file(s)"));
  auto cached = files_in(dir / "cache" / "tlscope", ".db");
  REQUIRE(cached.size() == 1);
  CHECK(contains(first.out, cached[0].string()));
  // A rebuild renames a new file into place: the inode tells a reuse from a rebuild.
  auto inode = [](const fs::path& p) {
    struct stat st {};
    stat(p.c_str(), &st);
    return st.st_ino;
  };
  auto built = inode(cached[0]);

  // Unchanged logs: the same database, not ingested again, for every reading command.
  RunResult again = tlscope_in(dir, "summary " + q(log.string()));
  CHECK(again.exit_code == 0);
  CHECK_FALSE(contains(again.err, "ingested"));
  CHECK(again.out == first.out);
  RunResult trace = tlscope_in(dir, "export chrome-trace " + q(log.string()) + " -o t.json");
  CHECK(trace.exit_code == 0);
  CHECK_FALSE(contains(trace.err, "ingested"));
  CHECK(fs::file_size(dir / "t.json") > 100);
  RunResult tensor = tlscope_in(dir, "tensor " + q(log.string()) + " --id 0");
  CHECK(tensor.exit_code == 0);
  CHECK(contains(tensor.out, "size [1, 320, 128, 128]"));
  CHECK(inode(cached[0]) == built);

  // A changed log (size and mtime) is ingested again into the same cache file.
  { std::ofstream(log, std::ios::app) << "\n"; }
  RunResult changed = tlscope_in(dir, "summary " + q(log.string()));
  CHECK(changed.exit_code == 0);
  CHECK(contains(changed.err, "ingested 1 file(s)"));
  CHECK(inode(cached[0]) != built);
  CHECK(files_in(dir / "cache" / "tlscope", ".db") == cached);
  CHECK(files_in(dir / "cache" / "tlscope").size() == 1);  // no building leftovers

  // Databases unused for 30 days go when another is built; one in use stays.
  fs::path old = dir / "cache" / "tlscope" / "0123456789abcdef0123456789abcdef.db";
  fs::copy_file(cached[0], old);
  fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::hours(24 * 31));
  fs::last_write_time(cached[0], fs::file_time_type::clock::now() - std::chrono::hours(24 * 31));
  REQUIRE(tlscope_in(dir, "summary " + q(log.string())).exit_code == 0);                 // a use
  REQUIRE(tlscope_in(dir, "summary " + q(kLogs + "/comp_metrics.log")).exit_code == 0);  // a build
  CHECK_FALSE(fs::exists(old));
  CHECK(fs::exists(cached[0]));
  CHECK(files_in(dir / "cache" / "tlscope", ".db").size() == 2);
}

TEST_CASE("reading: a rank directory, a .gz and a database are read alike") {
  fs::path dir = scratch("read_kinds");
  RunResult ranks = tlscope_in(dir, "summary " + q(kLogs + "/multi_rank_logs"));
  REQUIRE(ranks.exit_code == 0);
  CHECK(contains(ranks.out, "rank 3: 1 file(s)"));

  fs::path log = copy_log(dir, "comp_metrics.log");
  REQUIRE(std::system(("gzip -k " + q(log.string())).c_str()) == 0);
  RunResult gz = tlscope_in(dir, "summary " + q(log.string() + ".gz"));
  REQUIRE(gz.exit_code == 0);
  CHECK(contains(gz.out, "(gunzipped)"));

  REQUIRE(tlscope_in(dir, "ingest " + q(log.string()) + " --db run.db").exit_code == 0);
  RunResult db = tlscope_in(dir, "summary run.db");
  CHECK(db.exit_code == 0);
  CHECK(contains(db.out, "tlscope summary of run.db"));
  CHECK_FALSE(contains(db.err, "ingested"));
  // A database with other inputs is refused rather than guessed at.
  RunResult mixed = tlscope_in(dir, "summary run.db " + q(log.string()));
  CHECK(mixed.exit_code == 2);
  CHECK(contains(mixed.err, "run.db: is a tlscope database; give it alone"));
}

TEST_CASE("reading: --db names the database, one not built from logs is refused and kept") {
  fs::path dir = scratch("read_db");
  fs::path log = copy_log(dir, "simple.log");
  RunResult named = tlscope_in(dir, "summary " + q(log.string()) + " --db mine.db");
  REQUIRE(named.exit_code == 0);
  CHECK(contains(named.out, "tlscope summary of mine.db"));
  CHECK_FALSE(fs::exists(dir / "cache" / "tlscope"));
  RunResult reused = tlscope_in(dir, "report " + q(log.string()) + " --db mine.db -o rep");
  CHECK(reused.exit_code == 0);
  CHECK_FALSE(contains(reused.err, "ingested"));
  CHECK(fs::exists(dir / "rep" / "index.html"));
  // --db alone reads that database.
  CHECK(tlscope_in(dir, "summary --db mine.db").exit_code == 0);

  REQUIRE(
      tlscope_in(dir, "ingest " + q(kLogs + "/comp_metrics.log") + " --db other.db").exit_code ==
      0);
  auto size = fs::file_size(dir / "other.db");
  auto time = fs::last_write_time(dir / "other.db");
  RunResult refused = tlscope_in(dir, "summary " + q(log.string()) + " --db other.db");
  CHECK(refused.exit_code == 2);
  CHECK(contains(refused.err, "other.db: exists and was not built from logs"));
  CHECK(fs::file_size(dir / "other.db") == size);
  CHECK(fs::last_write_time(dir / "other.db") == time);

  { std::ofstream(dir / "notes.txt") << "not a database\n"; }
  RunResult text = tlscope_in(dir, "summary " + q(log.string()) + " --db notes.txt");
  CHECK(text.exit_code == 2);
  CHECK(contains(text.err, "notes.txt: exists and is not a tlscope database; not overwritten"));
  CHECK(slurp(dir / "notes.txt") == "not a database\n");
}

TEST_CASE("reading: a missing input exits 2 with only the error and leaves no database") {
  fs::path dir = scratch("read_missing");
  RunResult summary = tlscope_in(dir, "summary missing.log");
  CHECK(summary.exit_code == 2);
  CHECK(summary.out.empty());
  CHECK(summary.err == "tlscope summary: missing.log: no such file or directory\n");
  CHECK(files_in(dir / "cache" / "tlscope").empty());

  // The case: ingest printed "0 file(s) ingested ... analyzed" and left an empty x.db.
  RunResult ingest = tlscope_in(dir, "ingest missing.log --db x.db");
  CHECK(ingest.exit_code == 2);
  CHECK(ingest.out.empty());
  CHECK(ingest.err == "tlscope ingest: missing.log: no such file or directory\n");
  CHECK_FALSE(fs::exists(dir / "x.db"));
  // With a readable input beside it, still nothing is written.
  RunResult partly =
      tlscope_in(dir, "ingest " + q(kLogs + "/simple.log") + " missing.log --db y.db");
  CHECK(partly.exit_code == 2);
  CHECK_FALSE(fs::exists(dir / "y.db"));
}

TEST_CASE("reading: the report says a payload with a bad MD5 is kept and flagged") {
  fs::path dir = scratch("read_md5");
  RunResult r =
      tlscope_in(dir, "report " + q(kLogs + "/simple_corrupted_json.log") + " --db c.db -o rep");
  REQUIRE(r.exit_code == 0);
  std::string index = slurp(dir / "rep" / "index.html");
  CHECK(contains(index, "payloads with a bad MD5 were kept and flagged"));
  CHECK_FALSE(contains(index, "recorded and skipped"));
  CHECK(contains(slurp(dir / "rep" / "errors.html"), "was kept and flagged"));
  // And it is so: the mismatched payload is stored, flagged md5_ok = 0.
  tlscope::model::Connection db((dir / "c.db").string(), tlscope::model::OpenMode::kReadOnly);
  CHECK(scalar(db, "SELECT count(*) FROM events WHERE md5_ok = 0 AND payload_id IS NOT NULL") > 0);
}
