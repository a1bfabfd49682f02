// `tlscope gui --compare A B` on the command line: what it refuses before any window opens (one
// input, a run reference to no run), each with its message and exit 2. Two databases or two
// recorded runs mean compare mode without the flag. (What the window shows is tests/gui's.)
#ifdef TLSCOPE_WITH_GUI
#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

TEST_CASE("gui --compare: one run is refused, naming what it takes") {
  fs::path dir = scratch("gui_compare_one");
  RunResult r = tlscope_in(dir, "gui --compare " + q(kLogs + "/simple.log"),
                           "DISPLAY= XDG_DATA_HOME=" + q((dir / "data").string()));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--compare takes two runs, A and B (got 1)"));
}

TEST_CASE("gui: two recorded-run references mean compare mode, one to no run is refused") {
  fs::path dir = scratch("gui_compare_refs");
  // No run recorded: @1 names none, and the message says how many there are.
  RunResult r =
      tlscope_in(dir, "gui @2 @1", "DISPLAY= XDG_DATA_HOME=" + q((dir / "data").string()));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "tlscope gui: @2: there are 0 recorded run(s)"));
  // With --compare, a log beside a reference to no run: the reference is refused the same way.
  RunResult logs = tlscope_in(dir, "gui --compare " + q(kLogs + "/simple.log") + " @1",
                              "DISPLAY= XDG_DATA_HOME=" + q((dir / "data").string()));
  CHECK(logs.exit_code == 2);
  CHECK(contains(logs.err, "@1: there are 0 recorded run(s)"));
}
#endif  // TLSCOPE_WITH_GUI
