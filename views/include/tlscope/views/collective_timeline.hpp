// The collective timeline both front ends draw: a lane per (run, rank), a bar per collective from
// issue to completion, the same collective linked across the lanes of its ranks, and a marker for
// every desync, straggler and missing collective on the lanes of the ranks involved, carrying the
// finding's words. lane_folding.hpp folds the lanes of ranks that behave alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/timeline.hpp"
#include "tlscope/views/timeline_kinds.hpp"
#include "tlscope/views/timeline_runs.hpp"

namespace tlscope::views {

struct CollectiveBar {
  int64_t id = 0;  // collectives.id
  int64_t file_id = 0;
  int32_t run = 0;
  int64_t rank = -1;
  std::string pg_name, pg_desc, op, input_sizes, dtype, state;
  int64_t seq = -1, bytes = 0;
  double start_us = 0, end_us = 0;  // from the run's start
  CollectiveKind kind = CollectiveKind::other_op;
  ProblemKind problem = ProblemKind::none;  // the worst finding naming this (group, seq, rank)
};

struct CollectiveLink {
  uint32_t from = 0, to = 0;  // bars of one (group, seq) on consecutive ranks
};

struct ProblemMarker {
  ProblemKind kind = ProblemKind::none;
  int64_t finding_id = 0;
  int32_t run = 0;
  int64_t rank = -1;
  std::string pg_name;
  int64_t seq = -1;
  double at_us = 0;  // where the collective began on the other ranks (run time)
  std::string text;  // the finding's sentence (finding_words.hpp)
};

// A collective finding as the report's problem table lists it (bad_record included).
struct CollectiveFinding {
  int64_t id = 0;
  std::string kind, message;
};

struct CollectiveLane {
  int32_t run = 0;
  int64_t rank = -1;
};

struct CollectiveTimeline {
  TraceRuns runs;
  std::vector<CollectiveLane> lanes;  // sorted by (run, rank)
  std::vector<CollectiveBar> bars;    // by (group, seq, rank)
  std::vector<CollectiveLink> links;
  std::vector<ProblemMarker> markers;
  std::vector<CollectiveFinding> findings;
  int64_t records = 0, matched = 0, desyncs = 0, missing = 0, stragglers = 0, timed_out = 0;
};

Result<CollectiveTimeline> load_collective_timeline(const Database& db, const TraceRuns& runs);

// The lane of (run, rank), or -1.
int collective_lane(const CollectiveTimeline& t, int32_t run, int64_t rank);
// The first bar of collective `seq` of group `pg_name`, or -1.
int find_collective_bar(const CollectiveTimeline& t, std::string_view pg_name, int64_t seq);
// The bars as timeline intervals (thread "collectives", source_id = bar index), to lay them out
// with the phase lanes on one axis.
std::vector<TimelineInterval> collective_intervals(const CollectiveTimeline& t);
// "all_reduce #3".
std::string bar_label(const CollectiveBar& bar);
// "pg 0 (default_pg)  [[4, 4]] float32  64 B  completed".
std::string bar_detail(const CollectiveBar& bar);

}  // namespace tlscope::views
