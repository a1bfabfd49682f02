// SIGKILL in the middle of `tlscope ingest`, into a new database and appending to one, at several
// points of a log long enough to be cut: afterwards the database passes integrity_check, the
// files that were there are intact, the cut file is marked incomplete (a new database is simply
// not there yet), and a second ingest completes it with each event exactly once.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string_view>
#include <thread>

#include "e2e/e2e_support.hpp"

using namespace e2e;
using tlscope::model::Connection;
using tlscope::model::OpenMode;
using Clock = std::chrono::steady_clock;

extern char** environ;

namespace {

// ~11 MB: the largest real rank log and simple.log, three times over. Three parse batches, so an
// append commits in the middle of it (every 2 batches).
std::string make_long_log(const fs::path& dir) {
  std::string rank1 = slurp(kLogs + "/multi_rank_logs/dedicated_log_torch_trace_rank_1.log");
  std::string simple = slurp(kLogs + "/simple.log");
  fs::path path = dir / "long.log";
  std::ofstream out(path, std::ios::binary);
  for (int i = 0; i < 3; ++i) out << rank1 << simple;
  return path.string();
}

// A running `tlscope ingest --no-analyze LOG --db DB`, output to files in `dir`. With LOG "-" the
// test feeds its standard input through a pipe (feed()), so it decides how far the ingest gets.
class IngestProcess {
 public:
  IngestProcess(const fs::path& dir, const std::string& log, const std::string& db) {
    std::string out = (dir / "killed_stdout.txt").string(),
                err = (dir / "killed_stderr.txt").string();
    int pipe_fds[2] = {-1, -1};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (log == "-") {
      REQUIRE(::pipe2(pipe_fds, O_CLOEXEC) == 0);
      posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], 0);
    }
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> args = {kTlscope, "ingest", "--no-analyze", log, "--db", db};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    REQUIRE(posix_spawn(&pid_, kTlscope.c_str(), &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
    if (log == "-") {
      ::close(pipe_fds[0]);
      stdin_ = pipe_fds[1];
    }
    start_ = Clock::now();
  }
  // Writes `bytes` to the ingest's standard input (left open: the ingest waits for more).
  void feed(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::write(stdin_, bytes.data(), bytes.size());
      REQUIRE(n > 0);
      bytes.remove_prefix(static_cast<size_t>(n));
    }
  }
  ~IngestProcess() {
    if (pid_ > 0) kill_now();
    if (stdin_ >= 0) ::close(stdin_);
  }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // Polls `ready` every 2 ms; kills the process with SIGKILL as soon as it holds. True if the kill
  // hit a running ingest, false if it had already finished.
  bool kill_when(const std::function<bool()>& ready) {
    for (;;) {
      int status;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      if (ready()) return kill_now();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  // Waits for the process; its exit code.
  int wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  bool kill_now() {
    ::kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  }
  pid_t pid_ = -1;
  int stdin_ = -1;
  Clock::time_point start_;
};

// One query's integer result, or -1 when the database cannot be read (yet).
int64_t try_scalar(const std::string& db, const std::string& sql) {
  try {
    Connection c(db, OpenMode::kReadOnly);
    return scalar(c, sql);
  } catch (const std::exception&) {
    return -1;
  }
}

// What must survive: each file's row and its events as counted in `events`.
std::vector<std::string> file_rows(Connection& db, const std::string& path_other_than) {
  std::vector<std::string> rows;
  tlscope::model::Statement s = db.prepare(
      "SELECT f.id, f.path, f.events, f.completed, (SELECT count(*) FROM events e WHERE "
      "e.file_id = f.id), (SELECT count(*) FROM chromium_event_rows c WHERE c.file_id = f.id) "
      "FROM files f WHERE f.path <> ? ORDER BY f.id");
  s.bind_static(1, path_other_than);
  while (s.step()) {
    std::string row;
    for (int i = 0; i < 6; ++i) row += s.text(i) + "|";
    rows.push_back(row);
  }
  return rows;
}

// The database as a reader finds it after a kill. A kill inside the very last step of an append
// (switching the database back from WAL to a rollback journal) leaves a hot journal that only a
// writer may roll back: a reader's message must say so, and any writer (the re-ingest) repairs it.
std::unique_ptr<Connection> open_after_kill(const std::string& db) {
  try {
    auto c = std::make_unique<Connection>(db, OpenMode::kReadOnly);
    scalar(*c, "SELECT count(*) FROM files");
    return c;
  } catch (const std::exception& e) {
    CHECK_THAT(e.what(), Catch::Contains("interrupted"));
    Connection writer(db, OpenMode::kReadWrite);
    scalar(writer, "SELECT count(*) FROM files");
  }
  return std::make_unique<Connection>(db, OpenMode::kReadOnly);
}

std::vector<std::string> leftovers(const fs::path& dir, const std::string& db_name) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name.rfind(db_name + ".ingest-", 0) == 0) names.push_back(name);
  }
  return names;
}

// The long log and what one clean ingest of it gives, made once for both sections (Catch runs the
// test case once per section).
struct LongLog {
  fs::path dir;
  std::string path;
  double ingest_seconds = 0;
  int64_t events = 0;
};

const LongLog& long_log() {
  static const LongLog made = [] {
    LongLog l;
    l.dir = scratch("kill");
    l.path = make_long_log(l.dir);
    std::string ref = (l.dir / "ref.db").string();
    IngestProcess clean(l.dir, l.path, ref);
    REQUIRE(clean.wait() == 0);
    l.ingest_seconds = clean.seconds();
    l.events = try_scalar(ref, "SELECT count(*) FROM events");
    return l;
  }();
  return made;
}

}  // namespace

TEST_CASE("ingest killed with SIGKILL at several points loses nothing and completes on re-run") {
  const fs::path& dir = long_log().dir;
  const std::string& log = long_log().path;
  const double fresh_seconds = long_log().ingest_seconds;
  const int64_t log_events = long_log().events;
  REQUIRE(log_events > 2000);
  INFO("clean ingest " << fresh_seconds << " s, " << log_events << " events");

  // The second ingest after a kill: exit 0, the log's events exactly once, complete.
  auto check_completed = [&](const std::string& db) {
    RunResult again = run_tlscope(dir, "ingest --no-analyze " + q(log) + " --db " + q(db));
    INFO(again.err);
    CHECK(again.exit_code == 0);
    Connection c(db, OpenMode::kReadOnly);
    CHECK(text(c, "PRAGMA integrity_check") == "ok");
    CHECK(scalar(c, "SELECT count(*) FROM files WHERE path = " + q(log)) == 1);
    CHECK(scalar(c, "SELECT completed FROM files WHERE path = " + q(log)) == 1);
    CHECK(scalar(c,
                 "SELECT count(*) FROM events e JOIN files f ON f.id = e.file_id WHERE "
                 "f.path = " +
                     q(log)) == log_events);
  };

  SECTION("into a new database: nothing appears at the path until the ingest is complete") {
    // The log through a pipe, cut at three points: the ingest is certainly mid-way at each kill.
    std::string bytes = slurp(log);
    std::string db = (dir / "fresh.db").string();
    for (double fraction : {0.0, 0.5, 0.95}) {
      INFO("killed after " << fraction << " of the log");
      fs::remove(db);
      IngestProcess p(dir, "-", db);
      p.feed(std::string_view(bytes).substr(0, static_cast<size_t>(bytes.size() * fraction)));
      // Once the temporary database has its schema, let the writer take what it was given.
      bool killed = p.kill_when([&] {
        for (const std::string& name : leftovers(dir, "fresh.db")) {
          std::error_code ec;
          if (fs::file_size(dir / name, ec) > 0)
            return p.seconds() > 0.05 + fresh_seconds * fraction;
        }
        return false;
      });
      REQUIRE(killed);
      CHECK_FALSE(fs::exists(db));
      CHECK(leftovers(dir, "fresh.db").size() == 1);
      RunResult summary = run_tlscope(dir, "summary " + q(db));
      CHECK(summary.exit_code == 2);
      check_completed(db);
      // The killed run's temporary database was removed by the second one.
      CHECK(leftovers(dir, "fresh.db").empty());
    }
  }

  SECTION("appending: the earlier files stay intact, the cut one is marked incomplete") {
    // Each kill point starts from the same database of four earlier, analysed files.
    std::string base = (dir / "base.db").string(), db = (dir / "append.db").string();
    REQUIRE(run_tlscope(dir, "ingest " + q(kLogs + "/multi_rank_logs") + " --db " + q(base))
                .exit_code == 0);
    std::vector<std::string> earlier;
    {
      Connection c(base, OpenMode::kReadOnly);
      earlier = file_rows(c, log);
    }
    REQUIRE(earlier.size() == 4);
    const std::string file_count = "SELECT count(*) FROM files WHERE path = " + q(log);
    const std::string file_events = "SELECT events FROM files WHERE path = " + q(log);
    const std::function<bool(const IngestProcess&)> points[] = {
        // the cut file's row is committed, none of its events yet
        [&](const IngestProcess&) { return try_scalar(db, file_count) == 1; },
        // a commit in the middle of the file
        [&](const IngestProcess&) { return try_scalar(db, file_events) > 0; },
        // the last commit, the file complete: killed while closing the database
        [&](const IngestProcess&) {
          return try_scalar(db, "SELECT completed FROM files WHERE path = " + q(log)) == 1;
        },
    };
    // A point the ingest ran past before the poll saw it is a finished ingest, checked as such.
    int killed = 0, incomplete = 0;
    for (const auto& point : points) {
      fs::copy_file(base, db, fs::copy_options::overwrite_existing);
      IngestProcess p(dir, log, db);
      bool hit = p.kill_when([&] { return point(p); });
      killed += hit;
      int64_t cut_completed = -1;  // -1: no row of the cut file was committed
      {
        std::unique_ptr<Connection> reader = open_after_kill(db);
        Connection& c = *reader;
        CHECK(text(c, "PRAGMA integrity_check") == "ok");
        CHECK(file_rows(c, log) == earlier);
        if (hit) {
          CHECK(scalar(c, file_count) <= 1);
          cut_completed = scalar(c, "SELECT completed FROM files WHERE path = " + q(log));
          int64_t cut_events = scalar(c,
                                      "SELECT count(*) FROM events e JOIN files f ON "
                                      "f.id = e.file_id WHERE f.path = " +
                                          q(log));
          // Killed after its last commit (closing the database), the file is simply complete.
          if (cut_completed == 1) CHECK(cut_events == log_events);
          if (cut_completed == 0) CHECK(cut_events < log_events);
        }
      }
      if (cut_completed == 0) {
        RunResult summary = run_tlscope(dir, "summary " + q(db));
        CHECK(summary.exit_code == 0);
        CHECK(summary.out.find("long.log is INCOMPLETE") != std::string::npos);
        if (incomplete++ == 0) {
          // The report too, once (it is the slow one): on the terminal and on index.html.
          fs::path out = dir / "report";
          RunResult report = run_tlscope(dir, "report " + q(db) + " -o " + q(out.string()));
          CHECK(report.exit_code == 0);
          CHECK(report.err.find("long.log is INCOMPLETE") != std::string::npos);
          CHECK(slurp(out / "index.html").find("long.log is INCOMPLETE") != std::string::npos);
        }
      }
      check_completed(db);
      Connection c(db, OpenMode::kReadOnly);
      CHECK(file_rows(c, log) == earlier);
    }
    CHECK(killed >= 1);
    CHECK(incomplete >= 1);
  }
}
