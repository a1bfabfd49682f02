// `tlscope run -- CMD`: TORCH_TRACE set for CMD, its output passed through, then summary and
// report, and CMD's own exit status (128 + signal when a signal ended it).
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

TEST_CASE("run: the sample's output, then the summary and the report, the run recorded") {
  fs::path dir = scratch("run_sample");
  const std::string data = "XDG_DATA_HOME=" + q((dir / "data").string());
  RunResult r = tlscope_in(dir, "run -o rep -- " + q(kSample) + " graph-breaks",
                           "TMPDIR=" + q(dir.string()) + " " + data);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "graph-breaks: 1 log file(s)"));  // the sample's own stdout
  CHECK(contains(r.out, "tlscope summary of rep/tlscope.db"));
  CHECK(contains(r.out, "graph break in"));  // a finding of the summary
  CHECK(contains(r.out, "to " + (dir / "rep" / "index.html").string()));
  CHECK(fs::exists(dir / "rep" / "index.html"));
  CHECK(fs::exists(dir / "rep" / ".tlscope-report"));
  // The sample wrote into the run's trace folder in the run history, which is kept, private.
  const fs::path runs = dir / "data" / "tlscope" / "runs";
  CHECK(contains(r.out, "run recorded as "));
  std::vector<fs::path> recorded = files_in(runs);
  REQUIRE(recorded.size() == 1);
  CHECK(files_in(recorded[0] / "trace", ".log").size() == 1);
  CHECK((fs::status(runs).permissions() & fs::perms::others_all) == fs::perms::none);
  bool left = false;
  for (const auto& f : files_in(dir)) left |= f.filename().string().rfind("tlscope-run-", 0) == 0;
  CHECK_FALSE(left);
}

TEST_CASE("run: without a usable history folder the trace goes to a temporary folder, removed") {
  fs::path dir = scratch("run_no_history");
  RunResult r = tlscope_in(dir, "run -o rep -- " + q(kSample) + " graph-breaks",
                           "TMPDIR=" + q(dir.string()) + " XDG_DATA_HOME=relative HOME=relative");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.err, "this run is not kept for compare"));
  CHECK(contains(r.out, (dir / "tlscope-run-").string()));
  bool left = false;
  for (const auto& f : files_in(dir)) left |= f.filename().string().rfind("tlscope-run-", 0) == 0;
  CHECK_FALSE(left);
  CHECK(fs::exists(dir / "rep" / "index.html"));
}

TEST_CASE("run: exits with the command's status, 128 + signal, 127 for a missing command") {
  fs::path dir = scratch("run_status");
  RunResult three = tlscope_in(dir, "run -- sh -c 'echo out; echo err >&2; exit 3'");
  CHECK(three.exit_code == 3);
  CHECK(three.out == "out\n");
  CHECK(contains(three.err, "err\n"));
  CHECK(contains(three.err, "wrote no TORCH_TRACE logs"));
  RunResult killed = tlscope_in(dir, "run -- sh -c 'kill -TERM $$'");
  CHECK(killed.exit_code == 128 + SIGTERM);
  CHECK(contains(killed.err, "killed by signal 15"));
  RunResult missing = tlscope_in(dir, "run -- no-such-program-here");
  CHECK(missing.exit_code == 127);
  CHECK(contains(missing.err, "no-such-program-here: No such file or directory"));
  CHECK_FALSE(contains(missing.err, "wrote no TORCH_TRACE logs"));  // only the error
  // The environment variable the command sees.
  RunResult env = tlscope_in(dir, "run -- sh -c 'echo \"$TORCH_TRACE\"'",
                             "XDG_DATA_HOME=" + q((dir / "data").string()));
  CHECK(env.out.rfind((dir / "data" / "tlscope" / "runs").string(), 0) == 0);
  CHECK(tlscope_in(dir, "run").exit_code == 2);  // no command
  // Everything from the command's name on is the command's, in order, `-o` and `--` included.
  RunResult bare = tlscope_in(dir, "run sh -c 'echo \"$@\"' sh -o x -- y");
  CHECK(bare.exit_code == 0);
  CHECK(bare.out == "-o x -- y\n");
  RunResult marked = tlscope_in(dir, "run -o rep -- sh -c 'echo \"$@\"; exit 4' sh -- z");
  CHECK(marked.exit_code == 4);
  CHECK(marked.out == "-- z\n");
}

TEST_CASE("run: --keep-trace keeps the logs in a new folder and refuses one with files") {
  fs::path dir = scratch("run_keep");
  RunResult r = tlscope_in(dir, "run --keep-trace kept -o rep -- " + q(kSample) + " graph-breaks");
  REQUIRE(r.exit_code == 0);
  CHECK(files_in(dir / "kept", ".log").size() == 1);
  CHECK(fs::exists(dir / "kept" / "truth.json"));
  RunResult again =
      tlscope_in(dir, "run --keep-trace kept -o rep -- " + q(kSample) + " graph-breaks");
  CHECK(again.exit_code == 2);
  CHECK(contains(again.err, "kept: exists and is not an empty folder"));
  // A report folder that is not a report is refused before the command runs.
  fs::create_directories(dir / "mine");
  { std::ofstream(dir / "mine" / "a.txt") << "a"; }
  RunResult refused = tlscope_in(dir, "run -o mine -- sh -c 'touch ran'");
  CHECK(refused.exit_code == 2);
  CHECK_FALSE(fs::exists(dir / "ran"));
}

TEST_CASE("run: SIGTERM sent to tlscope reaches the command") {
  fs::path dir = scratch("run_signal");
  fs::path started = dir / "started";
  std::string script = "trap 'exit 7' TERM; touch " + q(started.string()) +
                       "; i=0; while [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; exit 0";
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    setenv("XDG_STATE_HOME", (dir / "state").c_str(), 1);
    execl(kTlscope.c_str(), kTlscope.c_str(), "run", "-o", (dir / "rep").c_str(), "--", "sh", "-c",
          script.c_str(), static_cast<char*>(nullptr));
    _exit(99);
  }
  for (int i = 0; i < 200 && !fs::exists(started); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  REQUIRE(fs::exists(started));
  auto sent = std::chrono::steady_clock::now();
  kill(pid, SIGTERM);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);  // the command's trap ran: the signal was passed on
  CHECK(std::chrono::steady_clock::now() - sent < std::chrono::seconds(4));
}
