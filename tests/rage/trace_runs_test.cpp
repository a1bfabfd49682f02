// Telling runs apart in a TORCH_TRACE directory.
#include <catch2/catch.hpp>

#include "rage_support.hpp"
#include "tlscope/exporters/rage/rage.hpp"

using namespace rage_test;
using namespace tlscope::exporters::rage;

namespace {

// A copy of a real rank log moved to start at hh:mm:ss on 2026-11-28, modified when it ends.
void place(const fs::path& dir, const std::string& name, const std::string& source, int h, int m,
           int s) {
  std::string text = retime(slurp(source), wall(h, m, s));
  spit(dir / name, text);
  set_mtime(dir / name, local_time(2026, 11, 28, h, m + 1, s));
}

}  // namespace

TEST_CASE("runs: header times with the year taken from the modification time") {
  time_t nov = local_time(2026, 11, 29, 12, 0, 0);
  auto t = header_wall_time("V1128 10:00:01.500000 42 a.py:1] {}", nov);
  REQUIRE(t);
  CHECK(format_wall_time(*t) == "2026-11-28 10:00:01");
  CHECK(*t - static_cast<double>(static_cast<long long>(*t)) == Approx(0.5));
  // A December header in a file modified in November was written the year before.
  CHECK(format_wall_time(*header_wall_time("V1206 15:20:13.926000 1 a.py:1] {}", nov)) ==
        "2025-12-06 15:20:13");
  // The rank prefix of TORCH_LOGS output is skipped, as tlparse's unanchored regex does.
  CHECK(header_wall_time("[rank0]:V1128 10:00:01.000000 42 a.py:1] {}", nov));
  CHECK_FALSE(header_wall_time("\t{\"name\": 1}", nov));
  CHECK_FALSE(header_wall_time("V1399 10:00:01.000000 42 a.py:1] {}", nov));
}

TEST_CASE("runs: two launches of two ranks and a single-process run, newest first") {
  fs::path dir = scratch("runs_two");
  // Run A at 09:00, run B at 10:00 (rank 1 starts 3 s after rank 0), a lone process at 11:00.
  place(dir, "dedicated_log_torch_trace_rank_0_aaaaaaaa.log", kRank0, 9, 0, 0);
  place(dir, "dedicated_log_torch_trace_rank_1_bbbbbbbb.log", kRank1, 9, 0, 2);
  place(dir, "dedicated_log_torch_trace_rank_0_cccccccc.log", kRank0, 10, 0, 0);
  place(dir, "dedicated_log_torch_trace_rank_1_dddddddd.log", kRank1, 10, 0, 3);
  place(dir, "dedicated_log_torch_trace_eeeeeeee.log", kLogs + "/comp_failure.log", 11, 0, 0);
  spit(dir / "notes.txt", "not a trace\n");

  RunListing listing = list_runs(dir.string(), RunGrouping{}, /*scan=*/true);
  CHECK(listing.problems.empty());
  REQUIRE(listing.runs.size() == 3);
  const TraceRun& lone = listing.runs[0];
  const TraceRun& b = listing.runs[1];
  const TraceRun& a = listing.runs[2];
  CHECK(lone.ranks.empty());
  REQUIRE(lone.files.size() == 1);
  CHECK(fs::path(lone.files[0].path).filename() == "dedicated_log_torch_trace_eeeeeeee.log");
  CHECK(b.ranks == std::vector<int64_t>{0, 1});
  CHECK(fs::path(b.files[0].path).filename() == "dedicated_log_torch_trace_rank_0_cccccccc.log");
  CHECK(fs::path(b.files[1].path).filename() == "dedicated_log_torch_trace_rank_1_dddddddd.log");
  CHECK(format_wall_time(b.start) == "2026-11-28 10:00:00");
  CHECK(format_wall_time(a.start) == "2026-11-28 09:00:00");
  CHECK(a.ranks == std::vector<int64_t>{0, 1});
  CHECK(a.bytes == fs::file_size(kRank0) + fs::file_size(kRank1));
  // Records counted by the scan are the envelope lines of the files.
  CHECK(b.scanned);
  CHECK(b.records == record_lines(slurp(kRank0)) + record_lines(slurp(kRank1)));
  // comp_failure.log holds one failed compile (BackendCompilerFailed).
  CHECK(lone.compiles >= 1);
  CHECK(lone.failed_compiles == 1);
}

TEST_CASE("runs: back-to-back launches split where a rank repeats") {
  fs::path dir = scratch("runs_back_to_back");
  // The second launch starts 20 s after the first one's last record: within the gap, so only the
  // repeated ranks tell them apart.
  place(dir, "dedicated_log_torch_trace_rank_0_a.log", kRank0, 9, 0, 0);
  place(dir, "dedicated_log_torch_trace_rank_1_b.log", kRank0, 9, 0, 1);
  place(dir, "dedicated_log_torch_trace_rank_0_c.log", kRank0, 9, 0, 30);
  place(dir, "dedicated_log_torch_trace_rank_1_d.log", kRank0, 9, 0, 31);
  RunListing listing = list_runs(dir.string(), RunGrouping{}, false);
  REQUIRE(listing.runs.size() == 2);
  CHECK(fs::path(listing.runs[0].files[0].path).filename() ==
        "dedicated_log_torch_trace_rank_0_c.log");
  CHECK(fs::path(listing.runs[0].files[1].path).filename() ==
        "dedicated_log_torch_trace_rank_1_d.log");
  CHECK_FALSE(listing.runs[0].scanned);

  // Far apart in time, even different ranks are different runs.
  RunGrouping tight;
  tight.gap_seconds = 60;
  fs::path dir2 = scratch("runs_far_apart");
  place(dir2, "dedicated_log_torch_trace_rank_0_a.log", kRank0, 9, 0, 0);
  place(dir2, "dedicated_log_torch_trace_rank_1_b.log", kRank0, 9, 30, 0);
  CHECK(list_runs(dir2.string(), tight, false).runs.size() == 2);
}

TEST_CASE("runs: the real multi-rank directories") {
  // multi_rank_schedule: ranks 0 and 2 were logged at 16:17 on 07-28, rank 1 at 21:43.
  RunListing schedule = list_runs(kLogs + "/multi_rank_schedule", RunGrouping{}, false);
  REQUIRE(schedule.runs.size() == 2);
  CHECK(schedule.runs[0].ranks == std::vector<int64_t>{1});
  CHECK(schedule.runs[1].ranks == std::vector<int64_t>{0, 2});
}

TEST_CASE("runs: a missing directory and one without logs are problems, not crashes") {
  fs::path dir = scratch("runs_problems");
  RunListing missing = list_runs((dir / "nope").string(), RunGrouping{}, true);
  CHECK(missing.runs.empty());
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems[0].find("nope: no such directory") != std::string::npos);
  spit(dir / "readme.txt", "x");
  RunListing empty = list_runs(dir.string(), RunGrouping{}, true);
  CHECK(empty.runs.empty());
  REQUIRE_FALSE(empty.problems.empty());
  CHECK(empty.problems[0].find("no dedicated_log_torch_trace") != std::string::npos);
}
