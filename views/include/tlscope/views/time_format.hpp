// Time on the timelines: durations and offsets in the unit that suits them (ns to s), and the
// ruler's tick step. One rule for the report, the viewer and the terminal.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace tlscope::views {

// 0.0123 -> "12.3 ns", 1534.2 -> "1.53 ms", 2.5e6 -> "2.50 s"; three significant digits.
// Negative values keep their sign; non-finite values read "?".
std::string format_duration_us(double us);

// A ruler step of 1, 2 or 5 x 10^k µs giving at most `max_ticks` ticks over `span_us`.
double ruler_step_us(double span_us, double max_ticks);

// A ruler label for `offset_us` from the axis origin, in the unit that suits it, with just enough
// decimals that neighbouring ticks differ: step 0.5 ms -> "1.5 ms", step 2 ms -> "4 ms".
std::string format_ruler_label(double offset_us, double step_us);

// The ruler's ticks over the visible offsets [start_us, end_us] (from the axis origin, the run's
// start), `step_us` apart: multiples of the step, never before 0, so the padding a view keeps
// before the first zone shows no "-578 µs". At most `max_ticks` + 1 of them.
std::vector<double> ruler_ticks_us(double start_us, double end_us, double step_us,
                                   size_t max_ticks = 200);

}  // namespace tlscope::views
