// The two runs side by side on the compare page (compare_report.cpp): their compile trees with
// the frames aligned, and their timelines on one axis. Both draw views::Comparison as it is.
#pragma once

#include <string>

#include "tlscope/views/compare.hpp"

namespace tlscope::exporters {

// Each aligned frame with its compiles under it, A's beside B's; a frame or compile one run lacks
// is marked "only in A" / "only in B"; a compile's differences (its graph, guards, output code,
// caches) are listed under it.
void compare_compile_trees(std::string& html, const views::Comparison& c);

// One static SVG per run: a lane per rank, a bar per timed compile, both on an axis from 0 to the
// longer run's end, so the same x is the same time since each run's start.
void compare_timelines(std::string& html, const views::Comparison& c);

}  // namespace tlscope::exporters
