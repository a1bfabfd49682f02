// Collective timelines: per rank, the ordered collectives of each process group, and the k-th
// collective of a group matched across its ranks.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::model::analysis {

struct CollectiveOp {
  int64_t rank = 0;
  std::string pg_name, pg_desc;
  int64_t seq = 0;
  std::string op, input_sizes, dtype, state;
  int64_t bytes = 0;
  double created_us = 0;
  std::optional<double> started_us, completed_us;
};

struct RankTimeline {
  int64_t rank = 0;
  std::vector<CollectiveOp> ops;  // ordered by process group, then sequence id
};

std::vector<RankTimeline> load_rank_timelines(sqlite3* db);

struct CollectiveMatch {
  std::string pg_name, pg_desc;
  int64_t seq = 0;
  std::string op;
  std::vector<int64_t> present_ranks, missing_ranks;
  bool ops_agree = true, sizes_agree = true, dtypes_agree = true;
  double arrival_skew_us = 0;
  int64_t last_rank = 0;
  double wait_us = 0;
  std::optional<double> duration_us, bandwidth_gbps;
};

std::vector<CollectiveMatch> load_collective_matches(sqlite3* db);

}  // namespace tlscope::model::analysis
