// tlparse-like defaults: `tlscope report LOGS` writes ./tlscope-report (a stamped folder, never a
// folder that is not a report), --open runs the opener, `tlscope LOGS` is the report.
#include <catch2/catch.hpp>

#include "everyday_support.hpp"

using namespace e2e;

TEST_CASE("report: without -o it writes ./tlscope-report, says where, and may write it again") {
  fs::path dir = scratch("report_default");
  std::string log = q(kLogs + "/simple.log");
  RunResult r = tlscope_in(dir, "report " + log);
  REQUIRE(r.exit_code == 0);
  fs::path index = dir / "tlscope-report" / "index.html";
  CHECK(fs::exists(index));
  CHECK(fs::exists(dir / "tlscope-report" / ".tlscope-report"));
  CHECK(contains(r.out, "to " + index.string() + "\n"));
  // The stamped folder is a report: a second run writes over it.
  CHECK(tlscope_in(dir, "report " + log).exit_code == 0);
}

TEST_CASE("report: a folder that is not a tlscope report is refused and left alone") {
  fs::path dir = scratch("report_refuse");
  fs::create_directories(dir / "tlscope-report");
  { std::ofstream(dir / "tlscope-report" / "thesis.tex") << "mine\n"; }
  RunResult r = tlscope_in(dir, "report " + q(kLogs + "/simple.log"));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "tlscope-report: is a folder that is not a tlscope report"));
  CHECK(files_in(dir / "tlscope-report").size() == 1);
  CHECK(slurp(dir / "tlscope-report" / "thesis.tex") == "mine\n");
  // A file in the way is refused too.
  { std::ofstream(dir / "out") << "x"; }
  CHECK(tlscope_in(dir, "report " + q(kLogs + "/simple.log") + " -o out").exit_code == 2);
}

TEST_CASE("report: --open runs the opener ($TLSCOPE_OPEN_COMMAND, else xdg-open) on index.html") {
  fs::path dir = scratch("report_open");
  fs::path opener = dir / "opener.sh";
  {
    std::ofstream o(opener);
    o << "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"" << (dir / "opened.txt").string() << ".part\"\n"
      << "mv \"" << (dir / "opened.txt").string() << ".part\" \"" << (dir / "opened.txt").string()
      << "\"\n";
  }
  fs::permissions(opener, fs::perms::owner_all);
  RunResult r = tlscope_in(dir, "report " + q(kLogs + "/simple.log") + " -o rep --open",
                           "TLSCOPE_OPEN_COMMAND=" + q(opener.string()));
  REQUIRE(r.exit_code == 0);
  // The opener runs in the background, as a browser would be started.
  for (int i = 0; i < 100 && !fs::exists(dir / "opened.txt"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(slurp(dir / "opened.txt") == (dir / "rep" / "index.html").string() + "\n");
}

TEST_CASE("report: `tlscope LOGS` with no command writes the report, an unknown word is refused") {
  fs::path dir = scratch("report_bare");
  RunResult r = tlscope_in(dir, q(kLogs + "/simple.log"));
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(dir / "tlscope-report" / "index.html"));
  RunResult options = tlscope_in(dir, q(kLogs + "/simple.log") + " -o other");
  CHECK(options.exit_code == 0);
  CHECK(fs::exists(dir / "other" / "index.html"));
  RunResult typo = tlscope_in(dir, "sumary x.db");
  CHECK(typo.exit_code == 2);
  CHECK(contains(typo.err, "sumary: neither a command nor a file or directory"));
}

TEST_CASE("report: --threads N writes the same pages as one thread, and 0 or 9 is refused") {
  fs::path dir = scratch("report_threads");
  std::string logs = q(kLogs + "/multi_rank_logs");
  // One database for both runs, so only the page writing differs.
  REQUIRE(tlscope_in(dir, "ingest --db one.db " + logs).exit_code == 0);
  REQUIRE(tlscope_in(dir, "report one.db -o serial --threads 1").exit_code == 0);
  REQUIRE(tlscope_in(dir, "report one.db -o threaded --threads 3").exit_code == 0);
  size_t compared = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir / "serial")) {
    if (!entry.is_regular_file()) continue;
    fs::path rel = fs::relative(entry.path(), dir / "serial");
    // index.html shows the command line, which names the folder and the thread count.
    if (rel == "index.html" || rel == ".tlscope-report") continue;
    INFO(rel.string());
    CHECK(slurp(dir / "threaded" / rel) == slurp(entry.path()));
    ++compared;
  }
  CHECK(compared > 20);
  CHECK(files_in(dir / "threaded").size() == files_in(dir / "serial").size());
  RunResult zero = tlscope_in(dir, "report one.db -o zero --threads 0");
  CHECK(zero.exit_code == 2);
  CHECK(contains(zero.err, "--threads"));
  // More than the report uses is refused, not quietly cut to its cap.
  CHECK(tlscope_in(dir, "report one.db -o many --threads 9").exit_code == 2);
}
