// What the timeline and find-zone panels draw, read once per open database from the views/
// timeline models: compile-phase lanes and collective lanes laid out on one axis per run, the
// problem markers, the groups of ranks that behave alike, and the findings order that
// `--select finding:K` counts in.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tlscope/views/collective_timeline.hpp"
#include "tlscope/views/lane_folding.hpp"
#include "tlscope/views/phase_timeline.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {

struct TimelineScene {
  std::string db_path;
  views::TraceRuns runs;
  views::CollectiveTimeline collectives;
  std::vector<views::PhaseZone> phase_zones;  // for intervals [0, phase_zones.size())
  views::Timeline timeline;                   // phase and collective lanes, one axis per run
  std::vector<std::string> lane_labels;
  views::LaneFolding folding;    // alike ranks (the report's collective lanes fold the same)
  std::vector<int> lane_group;   // per lane: its folding group when that has 2+ ranks, or -1
  std::vector<bool> lane_leads;  // per lane: drawn for its group when the group is folded
  std::vector<int> timeline_lane_of_collective_lane;  // per collectives.lanes entry, or -1
  std::vector<int64_t> finding_ids;   // in the findings panel's order (finding:K is K-1 here)
  std::vector<std::string> problems;  // what failed to load
};

std::shared_ptr<TimelineScene> load_timeline_scene(const views::Database& db);
// The scene of the database `data` holds, loaded on first use and shared by the panels.
std::shared_ptr<TimelineScene> timeline_scene(const ViewerData& data);

// Zones on the lanes of (run, rank): the first lane of that rank, or -1.
int first_lane_of_rank(const TimelineScene& scene, int32_t run, int64_t rank);
// The interval of collective bar `bar`.
int interval_of_bar(const TimelineScene& scene, int bar);
// The interval a zone selection names: "#N" (an interval index) or a zone name (its longest
// zone); -1 when there is none.
int interval_for_key(const TimelineScene& scene, const std::string& key);

}  // namespace tlscope::gui
