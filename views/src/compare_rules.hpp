// When a change between two runs is a difference (compare.cpp): the timing thresholds, the
// per-rank wait rule and the config rule.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "compare_read.hpp"
#include "difference_list.hpp"

namespace tlscope::views {

// A time is a difference when it changed by at least min_delta_us and a quarter: timing noise
// between two runs of one program is neither.
inline constexpr double kMinDeltaUs = 100e3, kMinRatio = 0.25;
inline bool time_changed(double a_us, double b_us, double min_delta_us = kMinDeltaUs) {
  const double delta = std::fabs(b_us - a_us);
  return delta >= min_delta_us && delta >= kMinRatio * std::max(a_us, b_us);
}

// A compile phase's time is a difference from half a second on: compile phases are wall-clock
// spans of a process that shares its machine, and a busy machine (seen: two test runs on two
// cores) stretched the sample's 50 ms compiles to 240 ms in one run of an identical pair. A
// change a user acts on is seconds ("+8.2 s Inductor").
inline constexpr double kMinPhaseDeltaUs = 500e3;

// "1.234 s".
std::string seconds_text(double us);

// Desync, hang (missing collective) and straggler findings: the ones about a collective.
bool is_collective_finding(const std::string& kind);

// Each rank's wait for the last rank to arrive is mostly noise: thread scheduling on a loaded
// machine and ranks compiling at different speeds make a rank wait 100 ms or more at some
// collective of any run (the sample's first compiled step: 0.5-0.8 s under the sanitizers on a
// loaded machine, in both runs alike). So a wait change is counted only where the log gives it a
// cause and it stands above the pair's own noise:
// - the noise is the largest change of one rank's wait at one collective between the runs, over
//   the collectives matched in both for which neither run has a collective finding: what two
//   runs of the same work vary by at the same place (0.12 s in the loaded run above, where the
//   absolute waits reached 0.79 s; the longest absolute wait was once the noise, and it hid a
//   0.4 s straggler);
// - a rank's change is the sum, over the collectives a straggler, desync or hang finding of
//   either run names, of its wait in B minus its wait in A where that exceeds the noise;
// - it is a difference from kMinDeltaUs on. A and B are the rank's summed waits over all its
//   matched collectives.
void compare_waits(const RunFacts& a, const RunFacts& b, const std::set<int64_t>& shared_ranks,
                   DifferenceList& diffs);

// The config values both runs state that differ; a note when any do.
void compare_config(const RunFacts& a, const RunFacts& b, DifferenceList& diffs,
                    std::vector<std::string>& notes);

}  // namespace tlscope::views
