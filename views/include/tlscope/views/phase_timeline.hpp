// The compile-phase timeline both front ends draw: chromium events (matched B/E pairs, X events
// and instants) in lanes per run, rank and thread, nested by depth up to kPhaseMaxDepth, each
// run's time measured from its own start. The report's data file and the viewer's timeline
// panel are both drawn from this one model.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/timeline.hpp"
#include "tlscope/views/timeline_kinds.hpp"
#include "tlscope/views/timeline_runs.hpp"

namespace tlscope::views {

// Deeper phases share the row of this depth: real logs nest a dozen levels at most, and a row
// per level beyond that would push the other lanes out of sight.
constexpr int kPhaseMaxDepth = 12;

struct PhaseZone {
  std::string compile_id, cat;
  int64_t file_id = 0;
};

struct PhaseTimeline {
  Timeline timeline;             // times in µs from the start of each interval's run
  std::vector<PhaseZone> zones;  // parallel to timeline.intervals
  TraceRuns runs;
  int64_t phases = 0;     // intervals with a duration: X events and matched B/E pairs
  int64_t instants = 0;   // ph "i" / "I"
  int64_t unmatched = 0;  // B or E rows without a partner: not drawn, counted
};

// Reads chromium_events; a database without it gives an empty timeline. `runs` comes from
// load_trace_runs so that the phases and the collectives share one axis per run.
Result<PhaseTimeline> load_phase_timeline(const Database& db, const TraceRuns& runs);

// The intervals of a phase timeline, for a caller that lays them out with other lanes.
Result<std::vector<TimelineInterval>> phase_intervals(const Database& db, const TraceRuns& runs,
                                                      std::vector<PhaseZone>* zones,
                                                      int64_t* unmatched);

// "rank 1 · pid 0 tid 0", with "run 2 · " in front when the timeline holds several runs.
std::string lane_label(const TimelineLane& lane, size_t run_count);

// Every column of one chromium event and its args (JSON text), for the details pane.
using EventFields = std::vector<std::pair<std::string, std::string>>;
Result<EventFields> phase_event_fields(const Database& db, int64_t chromium_event_id);

}  // namespace tlscope::views
