// Inputs that must never hang, spin or wrap: FIFOs, devices and links to /dev/zero among the
// inputs, and glog header numbers too large for the columns that store them (issue 12, 4 and 18).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "common/watchdog.hpp"
#include "parse_harness.hpp"
#include "tlscope/parser/glog.hpp"

using namespace tlscope::parser;
using namespace tlscope::parser::test;
using tlscope::test::ChildEnd;
using tlscope::test::run_with_deadline;

namespace {

const std::string kRecord = "V0101 00:00:00.000000 1 torch/x.py:1] {\"str\": [\"/x.py\", 0]}\n";

bool mentions(const std::vector<std::string>& lines, const std::string& a, const std::string& b) {
  for (const std::string& l : lines)
    if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("hostile input: a FIFO or a link to /dev/zero in a rank directory is named, not read") {
  TempDir dir("fifo_dir");
  dir.file("dedicated_log_torch_trace_rank_0.log", kRecord);
  std::string fifo = dir.path() + "/dedicated_log_torch_trace_rank_1.log";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string zero = dir.path() + "/dedicated_log_torch_trace_rank_2.log";
  std::filesystem::create_symlink("/dev/zero", zero);
  InputPlan plan = plan_inputs({dir.path()});
  REQUIRE(plan.sources.size() == 1);
  CHECK(plan.sources[0].rank == 0);
  CHECK(plan.problems.empty());  // the directory itself is readable: its other logs are read
  REQUIRE(plan.unreadable.size() == 2);
  CHECK(mentions(plan.unreadable, fifo, "a FIFO"));
  CHECK(mentions(plan.unreadable, zero, "a character device"));
}

TEST_CASE("hostile input: a FIFO or a device named as an input is refused") {
  TempDir dir("fifo_arg");
  std::string fifo = dir.path() + "/trace.log";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  InputPlan plan = plan_inputs({fifo, "/dev/zero", "/dev/null"});
  CHECK(plan.sources.empty());
  REQUIRE(plan.problems.size() == 3);
  CHECK(mentions(plan.problems, fifo, "not a regular file"));
  CHECK(mentions(plan.problems, "/dev/zero", "a character device"));
  CHECK(mentions(plan.problems, "/dev/null", "a character device"));
}

TEST_CASE("hostile input: parse_source on a FIFO reports it at once instead of blocking") {
  // A FIFO swapped in after planning: opening it for reading would wait for a writer forever.
  TempDir dir("fifo_parse");
  std::string fifo = dir.path() + "/dedicated_log_torch_trace_rank_1.log";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  ChildEnd end = run_with_deadline(
      [&] {
        KeepingSink got = parse_file(fifo);
        return got.errors.size() == 1 && got.errors[0].kind == ErrorKind::kIo &&
               got.errors[0].reason.find(fifo + ": ") == 0 &&
               got.errors[0].reason.find("FIFO") != std::string::npos && !got.summary.completed;
      },
      10);
  CHECK(end == ChildEnd::kPassed);
}

TEST_CASE("hostile input: a header pid or line number too large to store is a bad header") {
  CHECK_FALSE(parse_glog_header("V0101 00:00:00.000000 99999999999999999999 torch/x.py:1] {}"));
  CHECK_FALSE(parse_glog_header("V0101 00:00:00.000000 9223372036854775808 torch/x.py:1] {}"));
  CHECK_FALSE(parse_glog_header("V0101 00:00:00.000000 1 torch/x.py:4294967296] {}"));
  CHECK_FALSE(parse_glog_header("V0101 00:00:00.000000 1 torch/x.py:99999999999999999999] {}"));
  // The largest values that fit are kept exactly.
  auto big =
      parse_glog_header("V0101 00:00:00.000000 9223372036854775807 torch/x.py:4294967295] {}");
  REQUIRE(big);
  CHECK(big->header.thread == 9223372036854775807ull);
  CHECK(big->header.lineno == 4294967295u);

  TempDir dir("huge_header");
  const std::string huge_pid =
      "V0101 00:00:00.000000 99999999999999999999 torch/x.py:1] {\"str\": [\"/y.py\", 1]}\n";
  const std::string huge_line = "V0101 00:00:00.000000 1 torch/x.py:99999999999] {\"str\": []}\n";
  std::string path = dir.file("huge.log", kRecord + huge_pid + kRecord + huge_line + kRecord);
  KeepingSink got = parse_file(path);
  CHECK(got.events.size() == 3);
  REQUIRE(got.errors.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    uint64_t line = 2 + 2 * i;
    CHECK(got.errors[i].kind == ErrorKind::kBadHeader);
    CHECK(got.errors[i].line == line);
    CHECK(got.errors[i].reason.find(path + ":" + std::to_string(line) + ": ") == 0);
  }
}
