// Lane folding for timelines of hundreds or thousands of ranks: ranks that issued the same
// collectives with similar timing fold into one lane group, drawn as one lane with a count
// ("ranks 0-1, 3-1023 (1,022)"); the ranks a finding names (desynced, missing, straggling) stay
// on lanes of their own. The report's collective pages and the viewer's timeline draw this one
// model, so they fold the same ranks under the same labels.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/collective_timeline.hpp"

namespace tlscope::views {

struct LaneGroup {
  int32_t run = 0;
  std::vector<int> lanes;      // indices into CollectiveTimeline::lanes, by rank; the first
                               // stands for the group while it is folded
  std::vector<int64_t> ranks;  // the lanes' ranks, ascending
  bool outlier = false;        // named by a finding: always a lane of its own
  ProblemKind problem = ProblemKind::none;  // the worst finding naming an outlier
  std::string label;  // "rank 2", "ranks 0-1, 3-1023 (1,022)"; "run 2 · " first with runs
};

struct LaneFolding {
  std::vector<LaneGroup> groups;   // by (run, first rank); every lane in exactly one group
  std::vector<int> group_of_lane;  // per CollectiveTimeline lane
  std::map<std::pair<int32_t, int64_t>, int> group_of_rank;  // (run, rank) -> group

  // The group of (run, rank), or -1 when no collective lane has that rank.
  int group_of(int32_t run, int64_t rank) const {
    auto it = group_of_rank.find({run, rank});
    return it == group_of_rank.end() ? -1 : it->second;
  }
  size_t folded_groups() const;  // groups of two or more lanes
};

// Ranks start alike when they issued the same collectives (kind of group: its description
// without instance numbers, seq, op, sizes) in one run; they stay alike when their mean lag behind
// the earliest rank differs from the next rank's by less than this or the mean collective's
// duration, whichever is longer.
constexpr double kAlikeLagUs = 1000;

LaneFolding fold_collective_lanes(const CollectiveTimeline& t);

// One row a front end draws: a folded group's first lane (standing for all of them) or, when
// the group is open, each of its lanes.
struct LaneRow {
  int group = 0;
  int lane = 0;
  bool folded = false;  // stands for the group's other lanes too
};

// The rows in group order; `open[g]` != 0 shows every lane of group g (missing entries: folded).
std::vector<LaneRow> lane_rows(const LaneFolding& folding, const std::vector<uint8_t>& open);

}  // namespace tlscope::views
