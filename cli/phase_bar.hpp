// `tlscope summary`'s compile-time bar: where the compile time went, phase by phase, in one
// line of the terminal, printed under the "Compile time ..." line when that time is large
// (views::kLargeCompileSeconds). Each phase's own time (self time: outside its child phases)
// is summed over the run by name, so the segments add up to the whole compile time without
// counting a nested phase twice; the costliest few get a letter each, the rest one `.` segment.
#pragma once

#include <string>
#include <vector>

#include "tlscope/views/compile_phases.hpp"

namespace tlscope::cli {

inline constexpr size_t kBarPhases = 5;  // named segments; the rest share `.`
inline constexpr size_t kBarWidth = 48;  // characters between the brackets

struct BarSegment {
  std::string name;  // the phase name as logged ("other" for the rest)
  double seconds = 0;
  char mark = '.';
  size_t width = 0;  // characters in the bar (a segment too small for one has 0)
};

// The segments, costliest first, "other" last; widths add up to `width` (none when no time).
std::vector<BarSegment> compile_phase_segments(const std::vector<views::PhaseTotal>& run,
                                               size_t width = kBarWidth);

// "  [AAAABBB..]" and its legend line "   A inductor_compile 1.20 s (48%)  B ...", log text made
// terminal-safe; no lines when the run has no phase time.
std::vector<std::string> compile_phase_bar(const std::vector<views::PhaseTotal>& run,
                                           size_t width = kBarWidth);

}  // namespace tlscope::cli
