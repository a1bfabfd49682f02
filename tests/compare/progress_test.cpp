// Progress of the long steps (issue 28): on a terminal, ingest, summary, compare and report draw
// a progress line on stderr; piped, or in --format json|markdown, they print none. The terminal is
// a real pseudo-terminal made by script(1), as a person's would be.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "e2e/e2e_support.hpp"

namespace {

const std::string kProgressMultiRank = e2e::kLogs + "/multi_rank_logs";

bool have_script() {
  return std::system("command -v script >/dev/null 2>&1") == 0;
}

// `tlscope ARGS` with a fresh cache, under a pty (script merges stdout and stderr) or piped
// (stderr alone, to a file).
std::string run_in(const e2e::fs::path& dir, const std::string& args, bool on_a_terminal) {
  e2e::fs::remove_all(dir / "cache");
  const std::string env = "XDG_STATE_HOME=" + e2e::q((dir / "state").string()) +
                          " XDG_CACHE_HOME=" + e2e::q((dir / "cache").string()) + " ";
  const std::string command = env + e2e::q(e2e::kTlscope) + " " + args;
  const std::string out = (dir / "captured.txt").string();
  std::string shell = on_a_terminal
                          ? "cd " + e2e::q(dir.string()) + " && script -qfec " + e2e::q(command) +
                                " /dev/null >" + e2e::q(out) + " 2>&1 </dev/null"
                          : "cd " + e2e::q(dir.string()) + " && " + command + " >/dev/null 2>" +
                                e2e::q(out) + " </dev/null";
  int status = std::system(shell.c_str());
  INFO(shell);
  CHECK(WIFEXITED(status));
  return e2e::slurp(out);
}

}  // namespace

TEST_CASE("progress: drawn on a terminal for ingest, summary, compare and report") {
  if (!have_script()) {
    WARN("SKIPPED: script(1) (util-linux) is not installed, no pseudo-terminal to test with");
    return;
  }
  auto dir = e2e::scratch("progress_tty");
  const std::string db = e2e::q((dir / "run.db").string());
  std::string out = run_in(dir, "ingest " + e2e::q(kProgressMultiRank) + " --db " + db, true);
  CHECK(out.find("\ringesting [") != std::string::npos);
  CHECK(out.find(" MB\x1b[K") != std::string::npos);
  out = run_in(dir, "summary " + e2e::q(kProgressMultiRank), true);
  CHECK(out.find("\ringesting [") != std::string::npos);
  out = run_in(dir,
               "compare " + e2e::q(e2e::kLogs + "/simple.log") + " " + e2e::q(kProgressMultiRank),
               true);
  CHECK(out.find("\ringesting A and B [") != std::string::npos);
  out = run_in(dir, "report " + db + " -o " + e2e::q((dir / "site").string()), true);
  CHECK(out.find("\rwriting the report [") != std::string::npos);
  // The line is erased before the answer: the last thing before "wrote" is the erase.
  CHECK(out.find("\r\x1b[Kwrote ") != std::string::npos);
}

TEST_CASE("progress: none when piped, none in the machine formats") {
  auto dir = e2e::scratch("progress_piped");
  const std::string db = e2e::q((dir / "run.db").string());
  for (const std::string& args :
       {"ingest " + e2e::q(kProgressMultiRank) + " --db " + db,
        "summary " + e2e::q(kProgressMultiRank),
        "compare " + e2e::q(e2e::kLogs + "/simple.log") + " " + e2e::q(kProgressMultiRank),
        "report " + db + " -o " + e2e::q((dir / "site").string())}) {
    const std::string err = run_in(dir, args, false);
    INFO(args << "\n" << err);
    CHECK(err.find('\r') == std::string::npos);
    CHECK(err.find("\x1b") == std::string::npos);
  }
  if (!have_script()) {
    WARN("SKIPPED the terminal half: script(1) is not installed");
    return;
  }
  for (const std::string& args : {"summary --format json " + e2e::q(kProgressMultiRank),
                                  "summary --format markdown " + e2e::q(kProgressMultiRank),
                                  "compare --format json " + e2e::q(e2e::kLogs + "/simple.log") +
                                      " " + e2e::q(kProgressMultiRank)}) {
    const std::string out = run_in(dir, args, true);
    INFO(args << "\n" << out);
    CHECK(out.find("ingesting") == std::string::npos);
    CHECK(out.find("\x1b[K") == std::string::npos);
  }
}
