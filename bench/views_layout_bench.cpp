// Per-frame cost of the view models: timeline layout over a million zones (whole range, where
// nearly everything folds, and a zoomed window), and TensorGrid layouts of growing shapes.
#include <chrono>
#include <cstdio>

#include "bench_args.hpp"
#include "tlscope/views/tensor_grid.hpp"
#include "tlscope/views/timeline.hpp"

using namespace tlscope::views;
using Clock = std::chrono::steady_clock;

static double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

int main(int argc, char** argv) {
  CLI::App app{"Per-frame cost of the timeline and tensor-grid view models"};
  if (auto rc = tlscope::bench::parse_args(app, argc, argv)) return *rc;
  // 8 lanes x 125000 top-level zones of 8 us every 10 us, each with a 4-us child: 1.0M zones...
  std::vector<TimelineInterval> ivs;
  for (int lane = 0; lane < 8; ++lane) {
    for (int i = 0; i < 62500; ++i) {
      double t = i * 10.0;
      TimelineInterval zone;
      zone.rank = lane;
      zone.thread = "t0";
      zone.name = "zone";
      zone.start_us = t;
      zone.end_us = t + 8;
      ivs.push_back(zone);
      zone.name = "child";
      zone.start_us = t + 2;
      zone.end_us = t + 6;
      ivs.push_back(zone);
    }
  }
  auto t0 = Clock::now();
  Timeline tl = build_timeline(std::move(ivs));
  std::printf("build_timeline: %zu zones, %zu lanes, %.1f ms\n", tl.intervals.size(),
              tl.lanes.size(), ms_since(t0));
  struct Case {
    const char* name;
    TimelineViewport vp;
  } cases[] = {{"whole range", {tl.start_us, tl.end_us, 1600, 3}},
               {"1/1000 zoom", {300000, 300625, 1600, 3}},
               {"1/100 zoom", {300000, 306250, 1600, 3}}};
  for (const auto& c : cases) {
    const int frames = 50;
    size_t items = 0, zones = 0, visited = 0;
    t0 = Clock::now();
    for (int f = 0; f < frames; ++f) {
      TimelineFrame fr = layout_timeline(tl, c.vp);
      items = fr.items.size();
      zones = fr.zones_visible;
      visited = fr.zones_visited;
    }
    std::printf(
        "layout_timeline %-12s: %8.3f ms/frame, %6zu items for %7zu visible zones (%zu visited)\n",
        c.name, ms_since(t0) / frames, items, zones, visited);
  }
  const std::vector<std::vector<int64_t>> shapes = {
      {2, 3, 4, 5}, {1000, 1000}, {64, 128, 128}, {10, 10, 10, 10, 10, 10}, {8, 8, 8, 8, 8, 8}};
  for (const auto& shape : shapes) {
    TensorGridInput in;
    in.shape = shape;
    in.flat_index_values = true;
    t0 = Clock::now();
    const int reps = 20;
    size_t cells = 0;
    for (int r = 0; r < reps; ++r) cells = layout_tensor_grid(in).grid->cells.size();
    std::string s;
    for (auto d : shape) s += std::to_string(d) + ",";
    std::printf("layout_tensor_grid (%s): %6zu cells, %.3f ms\n", s.c_str(), cells,
                ms_since(t0) / reps);
  }
  return 0;
}
