// The compare model's timelines: when each compile of the aligned lists ran, measured from the
// start of its own run, so a front end draws both runs on one axis starting at 0.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "tlscope/views/compare.hpp"

namespace tlscope::views {

struct CompileSpan {
  double start_us = 0, end_us = 0;
};
// (file_id, compile id) -> the extent of its chromium phases, from the start of its run.
using CompileSpans = std::map<std::pair<int64_t, std::string>, CompileSpan>;

// One run's compile spans (read on that run's connection, so A and B can be read side by side).
Result<CompileSpans> read_compile_spans(const Database& db);

// Fills CompilePair::start_*_us / end_*_us from each run's spans and Comparison::timeline_*_us.
void time_compile_pairs(const CompileSpans& a, const CompileSpans& b, Comparison& c);

}  // namespace tlscope::views
