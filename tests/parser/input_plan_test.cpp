// Expanding paths into sources: ranks from file names, directory scans, problems.
#include <catch2/catch.hpp>

#include "parse_harness.hpp"

using namespace tlscope::parser;
using namespace tlscope::parser::test;

TEST_CASE("rank_from_filename reads PyTorch's per-rank file names") {
  CHECK(rank_from_filename("dedicated_log_torch_trace_rank_0_6u3fubwl.log") == 0);
  CHECK(rank_from_filename("/x/y/dedicated_log_torch_trace_rank_12.log") == 12);
  CHECK(rank_from_filename("dedicated_log_torch_trace_rank_3.log.gz") == 3);
  CHECK_FALSE(rank_from_filename("dedicated_log_torch_trace_6u3fubwl.log"));
  CHECK_FALSE(rank_from_filename("dedicated_log_torch_trace_rank_.log"));
  CHECK_FALSE(rank_from_filename("dedicated_log_torch_trace_rank_1x.log"));
  CHECK_FALSE(rank_from_filename("simple.log"));
  // The rank is in the file name, not in a directory name.
  CHECK_FALSE(rank_from_filename("dedicated_log_torch_trace_rank_1/simple.log"));
}

TEST_CASE("plan_inputs orders a directory's logs by rank and skips other files") {
  TempDir dir("plan");
  dir.file("dedicated_log_torch_trace_rank_10_abc.log", "");
  dir.file("dedicated_log_torch_trace_rank_2.log", "");
  dir.file("dedicated_log_torch_trace_rank_1.log.gz", "");
  dir.file("dedicated_log_torch_trace_xyz.log", "");
  dir.file("notes.txt", "");
  dir.file("other.log", "");
  InputPlan plan = plan_inputs({dir.path()});
  REQUIRE(plan.sources.size() == 4);
  CHECK(plan.sources[0].rank == 1);
  CHECK(plan.sources[0].gzip);
  CHECK(plan.sources[1].rank == 2);
  CHECK(plan.sources[2].rank == 10);
  CHECK_FALSE(plan.sources[3].rank);
  for (uint32_t i = 0; i < 4; ++i) CHECK(plan.sources[i].source_id == i);
  REQUIRE(plan.skipped.size() == 2);
  CHECK(plan.skipped[0] == dir.path() + "/notes.txt");
  CHECK(plan.skipped[1] == dir.path() + "/other.log");
  CHECK(plan.problems.empty());
}

TEST_CASE("plan_inputs on the real multi-rank directory") {
  InputPlan plan = plan_inputs({shared_log("multi_rank_schedule")});
  REQUIRE(plan.sources.size() == 3);
  for (int64_t r = 0; r < 3; ++r) CHECK(plan.sources[r].rank == r);
  CHECK(plan.problems.empty());
}

TEST_CASE("plan_inputs reports missing paths and directories with no logs") {
  TempDir dir("plan_empty");
  dir.file("readme.txt", "x");
  std::string missing = dir.path() + "/nope.log";
  InputPlan plan = plan_inputs({missing, dir.path(), "-", fixture("comp_failure.log")});
  REQUIRE(plan.problems.size() == 2);
  CHECK(plan.problems[0].find(missing) == 0);
  CHECK(plan.problems[1].find(dir.path()) == 0);
  CHECK(plan.problems[1].find("no dedicated_log_torch_trace") != std::string::npos);
  REQUIRE(plan.sources.size() == 2);
  CHECK(plan.sources[0].path == "-");
  CHECK(plan.sources[1].path == fixture("comp_failure.log"));
  CHECK(plan.sources[1].source_id == 1);
}
