// How Inductor arranged a distributed graph's collectives (the report's collectives page): the
// SPMD check's mismatches (spmd_graph_mismatch findings, worded), the buckets it merged collectives
// into (fx_buckets), the overlap scheduler's graphs before and after with what it moved
// (overlap_schedules) and the collective runtimes it estimated (node_runtime_estimates);
// docs/schema.md has the tables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct CollectiveBucket {
  std::optional<int64_t> rank;
  std::string compile_id, collective;  // all_gather, reduce_scatter
  int64_t index = 0, size = 0;
  std::string nodes;  // "all_gather_into_tensor, all_gather_into_tensor_1"
};

struct OverlapSchedule {
  int64_t event_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id, scheduler, stage;  // greedy / ilp; before / after
  int64_t lines = 0, collectives = 0, waits = 0;
  int64_t before_event_id = 0;  // 0: none
  std::optional<int64_t> lines_added, lines_removed;
};

struct RuntimeEstimate {
  std::optional<int64_t> rank;
  std::string compile_id, collective;
  std::optional<int64_t> world_size;
  std::optional<double> benchmarked_ms, nccl_ms, inductor_ms;
};

struct CollectiveScheduling {
  std::vector<std::string> spmd_mismatches;  // the findings' sentences, in order
  std::vector<CollectiveBucket> buckets;     // log order
  std::vector<OverlapSchedule> schedules;    // log order
  std::vector<RuntimeEstimate> estimates;    // log order
  bool empty() const {
    return spmd_mismatches.empty() && buckets.empty() && schedules.empty() && estimates.empty();
  }
};

// Nothing (no error) for a database analysed before these tables existed.
Result<CollectiveScheduling> load_collective_scheduling(const Database& db);

}  // namespace tlscope::views
