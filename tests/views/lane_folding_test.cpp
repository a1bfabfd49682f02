// Lane folding on hand-built collective timelines of 1,024 ranks: ranks that issued the same
// collectives at about the same times fold into one group, the ranks a finding names and a rank
// that is late every time stay apart, and an open group shows each of its lanes.
#include <catch2/catch.hpp>

#include "tlscope/views/lane_folding.hpp"
#include "tlscope/views/rank_words.hpp"

using namespace tlscope::views;
using tlscope::views::grouped_number;
using tlscope::views::rank_runs;

namespace {

// `ranks` ranks issuing `count` all_reduces of 1 ms, 50 ms apart, rank r starting r % 7 µs late
// (jitter well under kAlikeLagUs); `late_rank` starts 20 ms late every time.
CollectiveTimeline job(int ranks, int count, int64_t late_rank = -1) {
  CollectiveTimeline t;
  t.runs.runs.push_back({});
  for (int r = 0; r < ranks; ++r) t.lanes.push_back({0, r});
  for (int seq = 0; seq < count; ++seq) {
    for (int r = 0; r < ranks; ++r) {
      CollectiveBar b;
      b.rank = r;
      b.pg_name = "0";
      b.seq = seq;
      b.op = "all_reduce";
      b.input_sizes = "[[4, 4]]";
      b.start_us = seq * 50000.0 + r % 7 + (r == late_rank ? 20000 : 0);
      b.end_us = b.start_us + 1000;
      t.bars.push_back(b);
    }
  }
  return t;
}

void desync_on(CollectiveTimeline& t, int64_t rank, int64_t seq) {
  for (auto& b : t.bars)
    if (b.rank == rank && b.seq == seq) {
      b.op = "all_gather";
      b.problem = ProblemKind::desync;
    }
  t.markers.push_back(
      {ProblemKind::desync, 1, 0, rank, "0", seq, seq * 50000.0, "rank 2 issued all_gather"});
}

}  // namespace

TEST_CASE("lane folding: 1024 alike ranks fold into one group, the desynced rank stays apart") {
  CollectiveTimeline t = job(1024, 4);
  desync_on(t, 2, 1);
  const LaneFolding f = fold_collective_lanes(t);
  REQUIRE(f.groups.size() == 2);
  const LaneGroup& rest = f.groups[0];
  CHECK(rest.label == "ranks 0-1, 3-1023 (1,023)");
  CHECK(rest.lanes.size() == 1023);
  CHECK_FALSE(rest.outlier);
  CHECK(rest.problem == ProblemKind::none);
  const LaneGroup& two = f.groups[1];
  CHECK(two.label == "rank 2");
  CHECK(two.ranks == std::vector<int64_t>{2});
  CHECK(two.outlier);
  CHECK(two.problem == ProblemKind::desync);
  CHECK(f.group_of(0, 2) == 1);
  CHECK(f.group_of(0, 1023) == 0);
  CHECK(f.group_of(0, 1024) == -1);
  CHECK(f.group_of_lane[2] == 1);
  CHECK(f.folded_groups() == 1);
}

TEST_CASE("lane folding: a finding's rank stays apart even when its collectives look alike") {
  CollectiveTimeline t = job(16, 3);
  t.markers.push_back({ProblemKind::straggler, 7, 0, 9, "0", 2, 100000.0, "rank 9 was late"});
  const LaneFolding f = fold_collective_lanes(t);
  REQUIRE(f.groups.size() == 2);
  CHECK(f.groups[0].label == "ranks 0-8, 10-15 (15)");
  CHECK(f.groups[1].label == "rank 9");
  CHECK(f.groups[1].problem == ProblemKind::straggler);
}

TEST_CASE("lane folding: a rank late at every collective does not fold with the on-time ranks") {
  const LaneFolding f = fold_collective_lanes(job(64, 5, 40));
  REQUIRE(f.groups.size() == 2);
  CHECK(f.groups[0].label == "ranks 0-39, 41-63 (63)");
  // Apart by its timing, not by a finding.
  CHECK(f.groups[1].label == "rank 40");
  CHECK_FALSE(f.groups[1].outlier);

  // A few hundred µs of jitter (as the 4-rank desync sample's ranks have) keeps ranks together.
  CollectiveTimeline jitter = job(4, 5);
  for (auto& b : jitter.bars) {
    b.start_us += static_cast<double>(b.rank) * 250;
    b.end_us += static_cast<double>(b.rank) * 250;
  }
  const LaneFolding j = fold_collective_lanes(jitter);
  REQUIRE(j.groups.size() == 1);
  CHECK(j.groups[0].label == "ranks 0-3 (4)");
}

TEST_CASE("lane folding: ranks issuing other collectives or another run are other groups") {
  CollectiveTimeline t = job(8, 2);
  for (auto& b : t.bars)
    if (b.rank >= 4) b.input_sizes = "[[8, 8]]";
  const LaneFolding f = fold_collective_lanes(t);
  REQUIRE(f.groups.size() == 2);
  CHECK(f.groups[0].label == "ranks 0-3 (4)");
  CHECK(f.groups[1].label == "ranks 4-7 (4)");

  CollectiveTimeline two_runs = job(4, 2);
  two_runs.runs.runs.push_back({});
  for (auto& b : two_runs.bars)
    if (b.rank >= 2) b.run = 1;
  two_runs.lanes = {{0, 0}, {0, 1}, {1, 2}, {1, 3}};
  const LaneFolding r = fold_collective_lanes(two_runs);
  REQUIRE(r.groups.size() == 2);
  CHECK(r.groups[0].label == "run 1 \xC2\xB7 ranks 0-1 (2)");
  CHECK(r.groups[1].label == "run 2 \xC2\xB7 ranks 2-3 (2)");
}

TEST_CASE("lane folding: ranks of a 2-D mesh fold across their row and column groups") {
  // 2x2 mesh: rank r is in row group r / 2 and column group r % 2, each group its own pg_name.
  CollectiveTimeline t;
  t.runs.runs.push_back({});
  for (int r = 0; r < 4; ++r) t.lanes.push_back({0, r});
  for (int r = 0; r < 4; ++r) {
    for (int seq = 1; seq <= 2; ++seq) {
      CollectiveBar row, col;
      row.rank = col.rank = r;
      row.seq = col.seq = seq;
      row.pg_name = std::to_string(1 + r / 2);
      row.pg_desc = "mesh_row_" + std::to_string(r / 2);
      col.pg_name = std::to_string(3 + r % 2);
      col.pg_desc = "mesh_col_" + std::to_string(r % 2);
      row.op = "all_reduce";
      col.op = r == 3 && seq == 2 ? "broadcast" : "all_gather";
      // Rank threads interleave the two groups differently: the column collective comes first
      // on odd ranks.
      row.start_us = seq * 10000.0 + (r % 2 ? 500 : 0);
      col.start_us = seq * 10000.0 + (r % 2 ? 0 : 500);
      row.end_us = row.start_us + 400;
      col.end_us = col.start_us + 400;
      t.bars.push_back(row);
      t.bars.push_back(col);
    }
  }
  const LaneFolding f = fold_collective_lanes(t);
  REQUIRE(f.groups.size() == 2);
  CHECK(f.groups[0].label == "ranks 0-2 (3)");
  // Rank 3 issued another op in its column group: not alike.
  CHECK(f.groups[1].label == "rank 3");
}

TEST_CASE("lane folding: a folded group is one row, an open group a row per lane") {
  CollectiveTimeline t = job(1024, 2);
  desync_on(t, 2, 0);
  const LaneFolding f = fold_collective_lanes(t);
  auto rows = lane_rows(f, {});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].folded);
  CHECK(rows[0].lane == 0);
  CHECK(rows[1].lane == 2);
  CHECK_FALSE(rows[1].folded);
  rows = lane_rows(f, {1, 0});
  REQUIRE(rows.size() == 1024);
  CHECK_FALSE(rows[0].folded);
  CHECK(rows[2].lane == 3);  // rank 2 is group 1's row, after the open group
  CHECK(rows[1023].lane == 2);
  CHECK(rows[1023].group == 1);
}

TEST_CASE("rank ranges and counts read well at thousands of ranks") {
  CHECK(rank_runs({0, 1, 3, 4, 5, 1023}, 6) == "0-1, 3-5, 1023");
  CHECK(rank_runs({7}, 6) == "7");
  std::vector<int64_t> even;
  for (int64_t r = 0; r < 40; r += 2) even.push_back(r);
  CHECK(rank_runs(even, 6) == "0, 2, 4, 6, 8, ..., 38");
  CHECK(grouped_number(1022) == "1,022");
  CHECK(grouped_number(4096000) == "4,096,000");
  CHECK(grouped_number(999) == "999");
}
