// What tlscope writes is built privately and renamed into place (issue 27, items 1-4 and 16):
// links planted in or beside an output are replaced, never written through; an earlier report
// stays whole until the new one is complete; a full disk or `ulimit -f` is exit 2 with nothing
// left behind.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>

#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

namespace {

const std::string kSimple = kLogs + "/simple.log";

// A file whose content must survive every command below.
fs::path victim(const fs::path& dir) {
  fs::path v = dir / "victim.txt";
  std::ofstream(v) << "precious\n";
  return v;
}

bool untouched(const fs::path& v) {
  return slurp(v) == "precious\n";
}

// Temporaries tlscope left beside `target` (".NAME.tlscope-tmp-*").
size_t temporaries_beside(const fs::path& target) {
  size_t n = 0;
  std::string prefix = "." + target.filename().string() + ".tlscope-tmp-";
  for (const fs::path& p : files_in(target.parent_path()))
    n += p.filename().string().rfind(prefix, 0) == 0;
  return n;
}

std::string ingested(const fs::path& dir) {
  std::string db = (dir / "s.db").string();
  REQUIRE(tlscope_in(dir, "ingest " + q(kSimple) + " --db " + q(db)).exit_code == 0);
  return db;
}

}  // namespace

TEST_CASE("safe writes: report -o DIR never writes through a link planted inside it") {
  fs::path dir = scratch("sw_report_links");
  fs::path v = victim(dir);
  std::string db = ingested(dir);
  fs::path out = dir / "rep";
  REQUIRE(tlscope_in(dir, "report " + q(db) + " -o " + q(out.string())).exit_code == 0);
  // Links planted at files the next report writes, and at a folder it writes into.
  fs::remove(out / "index.html");
  fs::create_symlink(v, out / "index.html");
  fs::remove(out / "assets" / "report.css");
  fs::create_symlink(v, out / "assets" / "report.css");
  fs::remove_all(out / "compile");
  fs::create_symlink(dir, out / "compile");
  RunResult r = tlscope_in(dir, "report " + q(db) + " -o " + q(out.string()));
  CHECK(r.exit_code == 0);
  CHECK(untouched(v));
  CHECK_FALSE(fs::is_symlink(out / "index.html"));
  CHECK_FALSE(fs::is_symlink(out / "compile"));
  CHECK(contains(slurp(out / "index.html"), "<!DOCTYPE html>"));
  CHECK(files_in(dir, ".html").empty());  // nothing went through the compile link
  CHECK(temporaries_beside(out) == 0);
}

TEST_CASE("safe writes: a planted stamp does not make a folder a report") {
  fs::path dir = scratch("sw_report_stamp");
  fs::path v = victim(dir);
  std::string db = ingested(dir);
  // An empty stamp in a folder of the user's.
  fs::path mine = dir / "mine";
  fs::create_directories(mine);
  std::ofstream(mine / "notes.txt") << "mine\n";
  std::ofstream(mine / ".tlscope-report");
  RunResult r = tlscope_in(dir, "report " + q(db) + " -o " + q(mine.string()));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, ".tlscope-report"));
  CHECK(slurp(mine / "notes.txt") == "mine\n");
  CHECK_FALSE(fs::exists(mine / "index.html"));
  // A stamp that is a link: refused, its target not written.
  fs::path linked = dir / "linked";
  fs::create_directories(linked);
  std::ofstream(linked / "notes.txt") << "mine\n";
  fs::create_symlink(v, linked / ".tlscope-report");
  r = tlscope_in(dir, "report " + q(db) + " -o " + q(linked.string()));
  CHECK(r.exit_code == 2);
  CHECK(untouched(v));
  CHECK(slurp(linked / "notes.txt") == "mine\n");
  // A stamp copied from a real report into another folder does not vouch for that folder.
  fs::path real = dir / "real";
  REQUIRE(tlscope_in(dir, "report " + q(db) + " -o " + q(real.string())).exit_code == 0);
  fs::copy_file(real / ".tlscope-report", mine / ".tlscope-report",
                fs::copy_options::overwrite_existing);
  r = tlscope_in(dir, "report " + q(db) + " -o " + q(mine.string()));
  CHECK(r.exit_code == 2);
  CHECK(slurp(mine / "notes.txt") == "mine\n");
  // The real report is recognised and rewritten.
  CHECK(tlscope_in(dir, "report " + q(db) + " -o " + q(real.string())).exit_code == 0);
}

TEST_CASE("safe writes: a rewritten report keeps no stale page and the old one until done") {
  fs::path dir = scratch("sw_report_swap");
  std::string db = ingested(dir);
  fs::path out = dir / "rep";
  REQUIRE(tlscope_in(dir, "report " + q(db) + " -o " + q(out.string())).exit_code == 0);
  std::string index = slurp(out / "index.html");
  std::ofstream(out / "compile" / "f99_0-0.html") << "a page of an older report\n";
  REQUIRE(tlscope_in(dir, "report " + q(db) + " -o " + q(out.string())).exit_code == 0);
  CHECK_FALSE(fs::exists(out / "compile" / "f99_0-0.html"));
  // A folder left by a killed report (its lock free) is cleaned up; one in use is not.
  fs::path dead = dir / ".rep.tlscope-tmp-dead01", live = dir / ".rep.tlscope-tmp-live01";
  for (const fs::path& p : {dead, live}) {
    fs::create_directories(p);
    std::ofstream(p / ".tlscope-lock");
    std::ofstream(p / "index.html") << "half\n";
    fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(1));
  }
  int held = ::open((live / ".tlscope-lock").c_str(), O_RDONLY);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  // A full disk (here: the file size limit) is exit 2 and the earlier report stays whole.
  RunResult full =
      run_line(dir, "ulimit -f 8; " + q(kTlscope) + " report " + q(db) + " -o " + q(out.string()));
  CHECK(full.exit_code == 2);
  CHECK(contains(full.err, "file too large"));
  CHECK(slurp(out / "index.html") == index);
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(live / "index.html"));
  ::close(held);
  CHECK(temporaries_beside(out) == 1);  // the live one only
}

TEST_CASE("safe writes: two reports into one folder at once leave one whole report") {
  fs::path dir = scratch("sw_report_race");
  std::string db = ingested(dir);
  std::string db2 = (dir / "t.db").string();
  REQUIRE(
      tlscope_in(dir, "ingest " + q(kLogs + "/comp_failure.log") + " --db " + q(db2)).exit_code ==
      0);
  fs::path out = dir / "rep";
  for (int round = 0; round < 3; ++round) {
    RunResult r = run_line(dir, q(kTlscope) + " report " + q(db) + " -o rep & " + q(kTlscope) +
                                    " report " + q(db2) + " -o rep & wait");
    INFO(r.err);
    std::string stamp = slurp(out / ".tlscope-report");
    std::string data = slurp(out / "index.html");
    // The index and the stamp name the same database: the folder is one report, not a mix.
    bool from_first = contains(stamp, "/s.db"), from_second = contains(stamp, "/t.db");
    CHECK(from_first != from_second);
    CHECK(contains(data, from_first ? "s.db" : "t.db"));
    CHECK(temporaries_beside(out) == 0);
  }
}

TEST_CASE("safe writes: export and report past ulimit -f exit 2 and leave nothing") {
  fs::path dir = scratch("sw_fsize");
  std::string db = ingested(dir);
  RunResult r = run_line(
      dir, "ulimit -f 4; " + q(kTlscope) + " export chrome-trace " + q(db) + " -o trace.json");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "trace.json"));
  CHECK(contains(r.err, "file too large"));
  CHECK_FALSE(fs::exists(dir / "trace.json"));
  CHECK(temporaries_beside(dir / "trace.json") == 0);
  CHECK(files_in(dir, ".partial").empty());
  r = run_line(dir, "ulimit -f 4; " + q(kTlscope) + " report " + q(db) + " -o newrep");
  CHECK(r.exit_code == 2);
  CHECK_FALSE(fs::exists(dir / "newrep"));
  CHECK(temporaries_beside(dir / "newrep") == 0);
}

TEST_CASE("safe writes: export -o FILE replaces planted links, never writes through them") {
  fs::path dir = scratch("sw_export_links");
  fs::path v = victim(dir);
  std::string db = ingested(dir);
  fs::create_symlink(v, dir / "trace.json.partial");
  RunResult r = tlscope_in(dir, "export chrome-trace " + q(db) + " -o trace.json");
  CHECK(r.exit_code == 0);
  CHECK(untouched(v));
  fs::remove(dir / "trace.json");
  fs::create_symlink(v, dir / "trace.json");
  r = tlscope_in(dir, "export chrome-trace " + q(db) + " -o trace.json");
  CHECK(r.exit_code == 0);
  CHECK(untouched(v));
  CHECK_FALSE(fs::is_symlink(dir / "trace.json"));
  CHECK(contains(slurp(dir / "trace.json"), "traceEvents"));
}

TEST_CASE("safe writes: run keeps the trace when a later step fails, and says so") {
  fs::path dir = scratch("sw_run_keep");
  // The command writes its trace, then puts a file where the report folder goes.
  std::string child =
      "sh -c " +
      q("cp " + kSimple + " \"$TORCH_TRACE/dedicated_log_torch_trace_rank_0_x.log\" && echo x > " +
        (dir / "out").string());
  RunResult r = run_line(dir, "TMPDIR=" + q(dir.string()) + " " + q(kTlscope) + " run -o " +
                                  q((dir / "out").string()) + " -- " + child);
  CHECK(r.exit_code != 0);
  size_t at = r.err.find("kept in ");
  REQUIRE(at != std::string::npos);
  std::string kept = r.err.substr(at + 8);
  kept = kept.substr(0, kept.find_first_of(" \n;"));
  CHECK(fs::exists(fs::path(kept) / "dedicated_log_torch_trace_rank_0_x.log"));
}

TEST_CASE("safe writes: SIGTERM while run ingests keeps the trace and says where") {
  fs::path dir = scratch("sw_run_term");
  fs::path big = dir / "big.log";
  {
    std::string simple = slurp(kSimple);
    std::ofstream out(big);
    for (int i = 0; i < 120; ++i) out << simple;  // ~30 MB: the ingest takes a while
  }
  // The command writes its trace and exits; a helper sends tlscope SIGTERM once it ingests.
  std::string child = "sh -c " + q("cp " + big.string() +
                                   " \"$TORCH_TRACE/dedicated_log_torch_trace_rank_0_x.log\"; "
                                   "( for i in $(seq 1 400); do ls -a " +
                                   dir.string() +
                                   "/out 2>/dev/null | grep -q ingest- && break; "
                                   "sleep 0.02; done; kill -TERM $PPID ) >/dev/null 2>&1 &");
  RunResult r =
      run_line(dir, "TMPDIR=" + q(dir.string()) + " " + q(kTlscope) + " run -o " +
                        q((dir / "out").string()) + " -- " + child + "; rc=$?; wait; exit $rc");
  CHECK(r.exit_code != 0);
  size_t at = r.err.find("kept in ");
  REQUIRE(at != std::string::npos);
  std::string kept = r.err.substr(at + 8);
  kept = kept.substr(0, kept.find_first_of(" \n;"));
  CHECK(fs::exists(fs::path(kept) / "dedicated_log_torch_trace_rank_0_x.log"));
}

TEST_CASE("safe writes: a database path past SQLite's limit is named, not a temporary") {
  fs::path dir = scratch("sw_long_db");
  fs::path deep = dir;
  for (int i = 0; i < 6; ++i) deep /= std::string(100, 'd');
  fs::create_directories(deep);
  std::string db = (deep / "x.db").string();
  RunResult r = tlscope_in(dir, "ingest " + q(kSimple) + " --db " + q(db));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, db));
  CHECK_FALSE(contains(r.err, ".ingest-"));
  CHECK(files_in(deep).empty());
}

TEST_CASE("safe writes: a merge refused for a shard's content names that shard") {
  fs::path dir = scratch("sw_merge_shard");
  REQUIRE(tlscope_in(dir, "ingest --no-analyze " + q(kSimple) + " --db a.db").exit_code == 0);
  REQUIRE(tlscope_in(dir, "ingest --no-analyze " + q(kLogs + "/comp_failure.log") + " --db b.db")
              .exit_code == 0);
  {
    tlscope::model::Connection b((dir / "b.db").string());
    b.exec("DROP TABLE payloads");
  }
  RunResult r = tlscope_in(dir, "merge a.db b.db --db out.db");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "tlscope merge: b.db: "));
  CHECK_FALSE(fs::exists(dir / "out.db"));
}
