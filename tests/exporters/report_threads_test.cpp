// The report's page families run on several threads (exporters/src/report_work.hpp): the folder
// they write must be byte-identical to the one a single thread writes, and a file that cannot be
// written must fail the report the same way.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "report_site.hpp"

namespace fs = std::filesystem;
using tlscope::exporters::ReportOptions;
using tlscope::exporters::ReportResult;
using tlscope::exporters::write_report;

namespace {

fs::path scratch(const std::string& name) {
  return fs::temp_directory_path() / ("tlscope-report-threads-" + name);
}

// Every file under `root`, by relative path, with its bytes.
std::map<std::string, std::string> files_of(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    out[fs::relative(e.path(), root).string()] = ss.str();
  }
  return out;
}

ReportResult report_with(const fs::path& db, const fs::path& out, size_t threads,
                         size_t max_compile_pages = 20000) {
  fs::remove_all(out);
  ReportOptions o;
  o.db_path = db.string();
  o.out_dir = out.string();
  o.threads = threads;
  o.max_compile_pages = max_compile_pages;
  return write_report(o);
}

// One ingest, then the report written with 1 thread and with 4; both folders compared file by
// file, and the counts and notes of both results.
void check_same_report(const std::vector<std::string>& inputs, const std::string& name,
                       size_t max_compile_pages = 20000) {
  fs::path dir = scratch(name);
  ReportResult one = tlscope::test::ingest_and_report(inputs, dir);
  REQUIRE(one.ok);
  fs::path db = dir / "tlscope.db";
  one = report_with(db, dir / "one", 1, max_compile_pages);
  ReportResult four = report_with(db, dir / "four", 4, max_compile_pages);
  REQUIRE(one.ok);
  REQUIRE(four.ok);
  CHECK(four.pages == one.pages);
  CHECK(four.files == one.files);
  CHECK(four.bytes == one.bytes);
  CHECK(four.largest_page_bytes == one.largest_page_bytes);
  CHECK(four.warnings == one.warnings);
  std::map<std::string, std::string> a = files_of(dir / "one"), b = files_of(dir / "four");
  CHECK(a.size() == one.files);
  REQUIRE(a.size() == b.size());
  size_t compile_pages = 0;
  for (const auto& [rel, bytes] : a) {
    INFO(rel);
    REQUIRE(b.count(rel) == 1);
    CHECK(b[rel] == bytes);
    compile_pages += rel.starts_with("compile/");
  }
  // Enough compile pages that several of the 4 threads' slices had some (compile_work: 16).
  CHECK(compile_pages >= std::min<size_t>(max_compile_pages, 4));
  size_t cut_notes = 0;
  for (const std::string& w : four.warnings) cut_notes += w.starts_with("only the first ");
  CHECK(cut_notes == (compile_pages == max_compile_pages ? 1 : 0));
  fs::remove_all(dir);
}

}  // namespace

TEST_CASE("a report written by 4 threads is byte-identical to one written by 1: real ranks") {
  check_same_report({std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs"}, "multi-rank");
}

TEST_CASE("a report written by 4 threads is byte-identical to one written by 1: a sample job") {
  fs::path logs = scratch("ddp-logs");
  fs::remove_all(logs);
  std::string cmd = (fs::path(TLSCOPE_BINARY_DIR) / "samples/runtime/tlscope-sample").string() +
                    " ddp --out " + logs.string() + " > /dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  check_same_report({logs.string()}, "ddp");
  fs::remove_all(logs);
}

TEST_CASE("4 threads note the compile pages cut short once, as 1 thread does") {
  // multi_rank_logs holds more than 3 compiles, so the cap cuts the compile pages short; the
  // note comes from the last slice only and must appear once.
  check_same_report({std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs"}, "capped", 3);
}

TEST_CASE("an unwritable page fails a report on 4 threads as it fails on 1") {
  fs::path dir = scratch("unwritable");
  REQUIRE(
      tlscope::test::ingest_and_report({std::string(TLSCOPE_SHARED_LOGS) + "/multi_rank_logs"}, dir)
          .ok);
  fs::path db = dir / "tlscope.db";
  auto blocked = [&](const fs::path& out, size_t threads) {
    fs::remove_all(out);
    // A folder where two pages go: the first (a compile page, written before collectives.html
    // in the families' order) is the error named.
    fs::create_directories(out / "compile" / "f1_0-0.html");
    fs::create_directories(out / "collectives.html");
    ReportOptions o;
    o.db_path = db.string();
    o.out_dir = out.string();
    o.threads = threads;
    return write_report(o);
  };
  ReportResult one = blocked(dir / "one", 1);
  ReportResult four = blocked(dir / "four", 4);
  CHECK_FALSE(one.ok);
  CHECK_FALSE(four.ok);
  // The message names the page and the cause.
  const std::string cause = ": cannot write: Is a directory";
  CHECK(one.error == (dir / "one" / "compile" / "f1_0-0.html").string() + cause);
  CHECK(four.error == (dir / "four" / "compile" / "f1_0-0.html").string() + cause);
  // The other pages were still written, the summary among them.
  CHECK(fs::exists(dir / "four" / "index.html"));
  CHECK(four.files == one.files);
  fs::remove_all(dir);
}
