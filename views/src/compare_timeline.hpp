// The compare model's timelines: when each compile of the aligned lists ran, measured from the
// start of its own run, so a front end draws both runs on one axis starting at 0.
#pragma once

#include "tlscope/views/compare.hpp"

namespace tlscope::views {

// Fills CompilePair::start_*_us / end_*_us from each run's chromium compile phases and
// Comparison::timeline_*_us; a read error is added to `out`.
void time_compile_pairs(const Database& a, const Database& b, Comparison& c,
                        Result<Comparison>& out);

}  // namespace tlscope::views
