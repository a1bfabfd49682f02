// The headless timeline bench: the same layout and draw-list code the panel runs every frame.
#include "tlscope/gui/timeline_bench.hpp"

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

#include "timeline_draw_list.hpp"

namespace tlscope::gui {

namespace {

// CPU time of this thread, so the figures do not depend on what else the machine runs.
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

constexpr int kLanes = 64;
constexpr float kBenchCanvasWidth = 1600, kBenchRowHeight = 18;

// Heap bytes behind a std::string (none while it fits the small-string buffer).
size_t heap_bytes(const std::string& s) {
  return s.capacity() > 15 ? s.capacity() + 1 : 0;
}

// Per lane, parents of 8 µs every 10 µs, each holding a 4 µs child: two depths, as a real
// trace nests its phases.
views::Timeline synthetic_timeline(size_t zones) {
  std::vector<views::TimelineInterval> ivs;
  ivs.reserve(zones);
  const size_t per_lane = (zones + kLanes - 1) / kLanes;
  for (int lane = 0; lane < kLanes && ivs.size() < zones; ++lane) {
    for (size_t i = 0; i < per_lane && ivs.size() < zones; ++i) {
      views::TimelineInterval iv;
      iv.rank = lane;
      iv.thread = "t0";
      const double t = static_cast<double>(i / 2) * 10.0;
      iv.name = i % 2 ? "child" : "zone";
      iv.start_us = i % 2 ? t + 2 : t;
      iv.end_us = i % 2 ? t + 6 : t + 8;
      iv.kind = static_cast<uint8_t>(i % 7);
      ivs.push_back(std::move(iv));
    }
  }
  return views::build_timeline(std::move(ivs));
}

size_t timeline_bytes(const views::Timeline& t) {
  size_t bytes = t.intervals.capacity() * sizeof(views::TimelineInterval);
  for (const auto& iv : t.intervals) bytes += heap_bytes(iv.name) + heap_bytes(iv.thread);
  for (const auto& lane : t.lanes) {
    bytes += sizeof lane + heap_bytes(lane.thread);
    for (const auto& d : lane.depths) bytes += d.capacity() * sizeof(views::TimelineZone);
    for (const auto& p : lane.end_prefix_max) bytes += p.capacity() * sizeof(double);
    bytes += lane.max_duration.capacity() * sizeof(double);
  }
  return bytes;
}

}  // namespace

int run_timeline_bench(size_t zones, std::FILE* out) {
  if (zones == 0) {
    std::fprintf(out, "--bench-timeline needs at least one zone\n");
    return 2;
  }
  const double t0 = cpu_ms();
  const views::Timeline tl = synthetic_timeline(zones);
  const double build_ms = cpu_ms() - t0;
  std::fprintf(out, "zones: %zu on %zu lanes\n", tl.intervals.size(), tl.lanes.size());
  std::fprintf(out, "build: %.1f ms\n", build_ms);
  const TimelineRows rows = layout_rows(tl, {}, {}, kBenchRowHeight, 4);
  const double span = tl.end_us - tl.start_us;
  struct Zoom {
    const char* name;
    double fraction;
  } zooms[] = {{"whole range", 1.0}, {"1/100", 1e-2}, {"1/10000", 1e-4}};
  TimelineDrawList list;
  size_t checksum = 0;  // keeps the work observable
  for (const Zoom& z : zooms) {
    // 61 frames panning from the start to the end of the range (one frame for the whole range
    // repeated), as a user scrolling through it would draw them.
    const int frames = 61;
    std::vector<double> ms;
    for (int f = 0; f < frames; ++f) {
      const double width = span * z.fraction;
      const double start = tl.start_us + (span - width) * f / (frames - 1);
      const views::TimelineViewport vp{start, start + width, kBenchCanvasWidth, 3};
      const double f0 = cpu_ms();
      const views::TimelineFrame frame = views::layout_timeline(tl, vp);
      build_draw_list(tl, frame, rows, 0, rows.height, 24, list);
      ms.push_back(cpu_ms() - f0);
      checksum += list.rects.size();
    }
    std::sort(ms.begin(), ms.end());
    std::fprintf(out, "%s median: %.3f ms\n", z.name, ms[ms.size() / 2]);
    std::fprintf(out, "%s max: %.3f ms\n", z.name, ms.back());
  }
  std::fprintf(out, "bytes per zone: %.0f\n",
               static_cast<double>(timeline_bytes(tl)) / static_cast<double>(tl.intervals.size()));
  return checksum > 0 ? 0 : 1;
}

}  // namespace tlscope::gui
