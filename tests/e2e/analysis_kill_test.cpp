// SIGKILL in the middle of `tlscope analyze` (analyze_database: a write-ahead log, the journal mode
// switched without a sync): afterwards the database passes integrity_check, the ingest's rows
// and the earlier analysis are exactly as they were, and analysing again ends back in rollback
// journal mode with the same tables.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "common/sql_rows.hpp"
#include "e2e/e2e_support.hpp"
#include "tlscope/model/analysis/analyze.hpp"

using namespace e2e;
using tlscope::model::Connection;
using tlscope::model::OpenMode;

extern char** environ;

namespace {

// Every row of every analysis table and of the ingest's files and events, in row order, and the
// schema: what a kill must leave as it was.
std::vector<std::string> contents(const std::string& db) {
  Connection c(db, OpenMode::kReadOnly);
  std::vector<std::string> all = tlscope::test::sql_rows(
      c.handle(), "SELECT type, name, sql FROM sqlite_master ORDER BY name");
  std::vector<std::string> tables = {"files", "events"};
  for (const auto& t : tlscope::model::analysis::analysis_tables()) tables.push_back(t.name);
  for (const std::string& table : tables) {
    all.push_back("table " + table);
    for (std::string& row : tlscope::test::sql_rows(c.handle(), "SELECT * FROM " + table))
      all.push_back(std::move(row));
  }
  return all;
}

// Runs `tlscope analyze DB` and kills it with SIGKILL once its write-ahead log holds at least
// `wal_bytes` (0: exists, the analysis has begun; more: frames of its commit are being written).
// True if the kill hit the running analysis.
bool kill_analyze_midway(const fs::path& dir, const std::string& db, uintmax_t wal_bytes) {
  std::string out = (dir / "killed_out.txt").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = {kTlscope, "analyze", db};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  REQUIRE(posix_spawn(&pid, kTlscope.c_str(), &actions, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&actions);
  for (;;) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    std::error_code ec;
    uintmax_t size = fs::file_size(db + "-wal", ec);
    if (!ec && size >= wal_bytes) break;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace

TEST_CASE("analyze killed midway leaves the ingest and the earlier analysis intact") {
  fs::path dir = scratch("analysis_kill");
  std::string base = (dir / "base.db").string(), db = (dir / "killed.db").string();
  REQUIRE(
      run_tlscope(dir, "ingest " + q(kLogs + "/multi_rank_logs") + " --db " + q(base)).exit_code ==
      0);
  const std::vector<std::string> before = contents(base);
  REQUIRE(before.size() > 100);  // four ranks' files, events and analysis rows

  // Killed once the analysis has begun, and once its commit is being written to the WAL (past
  // the 32-byte header: a frame is 24 bytes and a page).
  int hits = 0;
  for (int attempt = 0; attempt < 6 && hits < 2; ++attempt) {
    fs::remove(db + "-wal");
    fs::remove(db + "-shm");
    fs::copy_file(base, db, fs::copy_options::overwrite_existing);
    bool hit = kill_analyze_midway(dir, db, attempt % 2 == 0 ? 0 : 32 + 24 + 16384);
    hits += hit;
    {
      // A read-write open replays nothing of the uncommitted WAL frames: it discards them.
      Connection c(db, OpenMode::kReadWrite);
      CHECK(text(c, "PRAGMA integrity_check") == "ok");
    }
    CHECK(contents(db) == before);
  }
  CHECK(hits >= 1);

  RunResult again = run_tlscope(dir, "analyze " + q(db));
  REQUIRE(again.exit_code == 0);
  CHECK_FALSE(fs::exists(db + "-wal"));
  {
    Connection c(db, OpenMode::kReadOnly);
    CHECK(text(c, "PRAGMA journal_mode") == "delete");
  }
  CHECK(contents(db) == before);
}
