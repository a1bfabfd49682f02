// `tlscope gui --bench-timeline N`: the CPU cost of one timeline frame (layout and draw list)
// over N synthetic zones on 64 lanes, at several zoom levels. Needs no window or GL context.
#pragma once

#include <cstddef>
#include <cstdio>

namespace tlscope::gui {

// Prints one figure per line: "<zoom> median: X ms", "<zoom> max: X ms", then
// "bytes per zone: B". Returns 0, or 2 when n is 0.
int run_timeline_bench(size_t zones, std::FILE* out);

}  // namespace tlscope::gui
