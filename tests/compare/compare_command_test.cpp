// `tlscope compare`'s command line: the three formats, and unreadable input refused with exit 2.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "e2e/e2e_support.hpp"

namespace {
const std::string kSimple = e2e::kLogs + "/simple.log";
const std::string kFailure = e2e::kLogs + "/comp_failure.log";
}  // namespace

TEST_CASE("compare: the terminal answer leads with the verdict, then sections") {
  auto dir = e2e::scratch("compare_text");
  auto r = e2e::run_tlscope(dir, "compare " + e2e::q(kSimple) + " " + e2e::q(kFailure));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const size_t verdict = r.out.find("B compiles a frame A did not: fn");
  REQUIRE(verdict != std::string::npos);
  CHECK(verdict < r.out.find("\nFrame by frame (A / B)"));
  CHECK(r.out.find("only_b   fn") != std::string::npos);
}

TEST_CASE("compare: markdown is a table a bug report can paste") {
  auto dir = e2e::scratch("compare_markdown");
  auto r = e2e::run_tlscope(
      dir, "compare --format markdown " + e2e::q(kSimple) + " " + e2e::q(kFailure));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("<!-- tlscope.compare.md/1 -->\n## tlscope compare", 0) == 0);
  CHECK(r.out.find("| kind | subject | A | B | ranks |") != std::string::npos);
  CHECK(r.out.find("| frame\\_added |") != std::string::npos);
}

TEST_CASE("compare: a missing or unreadable input is exit 2 with a message naming it") {
  auto dir = e2e::scratch("compare_bad_input");
  auto r = e2e::run_tlscope(
      dir, "compare " + e2e::q(kSimple) + " " + e2e::q((dir / "missing.log").string()));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("missing.log") != std::string::npos);
  CHECK(r.out.empty());
  std::ofstream(dir / "junk.db") << "not a database";
  r = e2e::run_tlscope(dir,
                       "compare " + e2e::q((dir / "junk.db").string()) + " " + e2e::q(kSimple));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("junk.db") != std::string::npos);
}

TEST_CASE("compare: a run compared with itself has no difference") {
  auto dir = e2e::scratch("compare_self");
  auto r =
      e2e::run_tlscope(dir, "compare --format json " + e2e::q(e2e::kLogs + "/multi_rank_logs") +
                                " " + e2e::q(e2e::kLogs + "/multi_rank_logs"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\"differences\": []") != std::string::npos);
}

TEST_CASE("compare -o DIR: a page of the same comparison, log text escaped") {
  auto dir = e2e::scratch("compare_html");
  // comp_failure.log with the function named as markup.
  const std::string hostile = (dir / "hostile.log").string();
  {
    std::string log = e2e::slurp(kFailure);
    for (size_t at = log.find("\"fn\""); at != std::string::npos; at = log.find("\"fn\"", at))
      log.replace(at, 4, "\"<script>alert(1)</script>\"");
    std::ofstream(hostile) << log;
  }
  auto r = e2e::run_tlscope(dir, "compare -o " + e2e::q((dir / "site").string()) + " " +
                                     e2e::q(kSimple) + " " + e2e::q(kFailure));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string page = e2e::slurp(dir / "site" / "index.html");
  CHECK(page.find("B compiles a frame A did not: fn") != std::string::npos);
  CHECK(page.find("<h2>frames</h2>") != std::string::npos);
  CHECK(e2e::fs::exists(dir / "site" / "assets" / "report.css"));
  // A log's text never becomes markup: the page's only tags are the page's own.
  r = e2e::run_tlscope(dir, "compare -o " + e2e::q((dir / "hostile").string()) + " " +
                                e2e::q(hostile) + " " + e2e::q(kSimple));
  REQUIRE(r.exit_code == 0);
  const std::string hostile_page = e2e::slurp(dir / "hostile" / "index.html");
  CHECK(hostile_page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(hostile_page.find("<script") == std::string::npos);
  // -o over an input is refused.
  r = e2e::run_tlscope(
      dir, "compare -o " + e2e::q(kSimple) + " " + e2e::q(kSimple) + " " + e2e::q(kFailure));
  CHECK(r.exit_code == 2);
}

TEST_CASE("compare @2 @1: the last two runs `tlscope run` recorded") {
  auto dir = e2e::scratch("compare_runs");
  const std::string sample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  const std::string env = "XDG_DATA_HOME=" + e2e::q((dir / "data").string()) + " ";
  auto in_dir = [&](const std::string& args) {
    std::string cmd = "cd " + e2e::q(dir.string()) + " && " + env + e2e::q(e2e::kTlscope) + " " +
                      args + " >" + e2e::q((dir / "out.txt").string()) + " 2>" +
                      e2e::q((dir / "err.txt").string());
    int status = std::system(cmd.c_str());
    return std::make_pair(WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                          e2e::slurp(dir / "out.txt"));
  };
  REQUIRE(in_dir("run -o r1 -- " + e2e::q(sample) + " graph-breaks").first == 0);
  REQUIRE(in_dir("run -o r2 -- " + e2e::q(sample) + " recompiles").first == 0);
  auto [code, out] = in_dir("compare --format json @2 @1");
  INFO(e2e::slurp(dir / "err.txt"));
  REQUIRE(code == 0);
  // graph-breaks' forward against recompiles' scaled_relu and step_decay: different programs.
  CHECK(out.find("\"kind\": \"frame_removed\"") != std::string::npos);
  CHECK(out.find("\"kind\": \"frame_added\"") != std::string::npos);
  CHECK(out.find("scaled_relu") != std::string::npos);
  CHECK(in_dir("compare @1 @7").first == 2);
}
