// What the timeline and find-zone panels draw, read once per open database from the views/
// timeline models: compile-phase lanes and collective lanes laid out on one axis per run, the
// problem markers and the groups of ranks that behave alike. The session (viewer_session.hpp)
// reads it once and shares it between the panels.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/collective_timeline.hpp"
#include "tlscope/views/lane_folding.hpp"
#include "tlscope/views/phase_timeline.hpp"

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
  std::vector<std::string> problems;                  // what failed to load
};

std::shared_ptr<TimelineScene> load_timeline_scene(const views::Database& db);

// Zones on the lanes of (run, rank): the first lane of that rank, or -1.
int first_lane_of_rank(const TimelineScene& scene, int32_t run, int64_t rank);
// The interval of collective bar `bar`.
int interval_of_bar(const TimelineScene& scene, int bar);
// The interval a zone selection names: "#N" (an interval index) or a zone name (its longest
// zone); -1 when there is none.
int interval_for_key(const TimelineScene& scene, const std::string& key);
// The longest compile-phase zone of compile `compile_id` in log `file_id` (compare mode puts both
// runs' timelines on a selected compile), or -1 when the log has no phase of it.
int longest_zone_of_compile(const TimelineScene& scene, std::string_view compile_id,
                            int64_t file_id);

}  // namespace tlscope::gui
