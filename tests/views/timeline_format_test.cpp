// Time units on the timelines, the kind tables behind the colours, and find-zone statistics.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "tlscope/views/time_format.hpp"
#include "tlscope/views/timeline_kinds.hpp"
#include "tlscope/views/zone_search.hpp"

using namespace tlscope::views;

TEST_CASE("durations read in the unit that suits them, ns to s") {
  CHECK(format_duration_us(0.0123) == "12.3 ns");
  CHECK(format_duration_us(0.0005) == "0.50 ns");
  CHECK(format_duration_us(0) == "0 ns");
  CHECK(format_duration_us(1.5) == "1.50 \xC2\xB5s");
  CHECK(format_duration_us(478.3) == "478 \xC2\xB5s");
  CHECK(format_duration_us(999.96) == "1.00 ms");
  CHECK(format_duration_us(163100.2) == "163 ms");
  CHECK(format_duration_us(2.5e6) == "2.50 s");
  CHECK(format_duration_us(-1534.2) == "-1.53 ms");
  CHECK(format_duration_us(7200e6) == "7200 s");
  CHECK(format_duration_us(NAN) == "?");
}

TEST_CASE("ruler steps are 1, 2 or 5 x 10^k and labels follow the step's unit") {
  CHECK(ruler_step_us(1000, 10) == Approx(100));
  CHECK(ruler_step_us(1000, 8) == Approx(200));
  CHECK(ruler_step_us(1000, 3) == Approx(500));
  CHECK(ruler_step_us(0.01, 5) == Approx(0.002));
  CHECK(format_ruler_label(1500, 500) == "1.5 ms");
  CHECK(format_ruler_label(4000, 2000) == "4 ms");
  CHECK(format_ruler_label(0.006, 0.002) == "6 ns");
  CHECK(format_ruler_label(3e6, 1e6) == "3 s");
  CHECK(format_ruler_label(-1e-9, 100000) == "0 ms");  // rounding never shows "-0"
}

TEST_CASE("ruler ticks start at the run's start, never in the padding before it") {
  // A view fitted with 2% padding: [-578, 28900] µs. The first tick is 0, not -578 or -5000.
  const double step = ruler_step_us(28900 + 578, 8);
  REQUIRE(step == Approx(5000));
  std::vector<double> ticks = ruler_ticks_us(-578, 28900, step);
  REQUIRE(ticks.size() == 6);
  CHECK(ticks.front() == 0);
  CHECK(format_ruler_label(ticks.front(), step) == "0 ms");
  CHECK(ticks.back() == Approx(25000));
  // Panned into the run: the first multiple of the step at or after the view's start.
  ticks = ruler_ticks_us(7001, 9000, 1000);
  REQUIRE(ticks.size() == 2);
  CHECK(ticks[0] == Approx(8000));
  // Multiples, not a running sum: the 1000th tick of 0.1 µs is still on the grid.
  ticks = ruler_ticks_us(0, 100, 0.1, 2000);
  REQUIRE(ticks.size() >= 1000);
  CHECK(ticks[1000] == 100.0);
  CHECK(ruler_ticks_us(-10, -1, 1).empty());       // a view wholly before the start: no labels
  CHECK(ruler_ticks_us(0, 1e9, 1).size() == 201);  // capped
}

TEST_CASE("phase and collective kinds come from one table with distinct colours") {
  CHECK(classify_phase("entire_frame_compile") == PhaseKind::dynamo);
  CHECK(classify_phase("backend_compile") == PhaseKind::backend);
  CHECK(classify_phase("inductor_compile") == PhaseKind::inductor);
  CHECK(classify_phase("fx_graph_cache_miss") == PhaseKind::cache);
  CHECK(classify_phase("PyCodeCache.load_by_key_path") == PhaseKind::cache);
  CHECK(classify_phase("create_aot_dispatcher_function") == PhaseKind::aot);
  CHECK(classify_phase("Scheduler.codegen") == PhaseKind::codegen);
  CHECK(classify_phase("gc") == PhaseKind::other_phase);
  CHECK(classify_collective("_allgather_base") == CollectiveKind::all_gather);
  CHECK(classify_collective("reduce_scatter_tensor") == CollectiveKind::reduce_scatter);
  CHECK(classify_collective("allreduce") == CollectiveKind::all_reduce);
  // Profiler spans of a process group's collectives, "<backend>:<op>".
  CollectiveKind op{};
  CHECK(is_collective_zone("nccl:all_reduce", &op));
  CHECK(op == CollectiveKind::all_reduce);
  CHECK(is_collective_zone("gloo:_allgather_base", &op));
  CHECK(op == CollectiveKind::all_gather);
  CHECK(is_collective_zone("nccl:barrier", &op));
  CHECK(op == CollectiveKind::barrier);
  CHECK_FALSE(is_collective_zone("nccl:", &op));         // no op named
  CHECK_FALSE(is_collective_zone("ncclKernel_AllReduce", &op));  // a GPU kernel, not the span
  CHECK_FALSE(is_collective_zone("backend_compile", &op));
  CHECK(problem_of_finding("missing_collective") == ProblemKind::hang);
  CHECK(problem_of_finding("graph_break") == ProblemKind::none);
  CHECK(style_of(ProblemKind::desync).id == "desync");
  // Colours tell kinds apart within each table.
  for (size_t i = 0; i < std::size(kPhaseKinds); ++i)
    for (size_t j = i + 1; j < std::size(kPhaseKinds); ++j)
      CHECK(kPhaseKinds[i].rgb != kPhaseKinds[j].rgb);
  for (size_t i = 0; i < std::size(kCollectiveKinds); ++i)
    for (size_t j = i + 1; j < std::size(kCollectiveKinds); ++j)
      CHECK(kCollectiveKinds[i].rgb != kCollectiveKinds[j].rgb);
}

namespace {

// CIE L*a*b* distance (CIE76) of two 0xRRGGBB colours: about 2.3 is the least a person notices;
// 20 reads as another colour at a glance.
double colour_distance(uint32_t a, uint32_t b) {
  auto lab = [](uint32_t rgb) {
    double c[3];
    for (int i = 0; i < 3; ++i) {
      double v = static_cast<double>((rgb >> (16 - 8 * i)) & 0xff) / 255.0;
      c[i] = v > 0.04045 ? std::pow((v + 0.055) / 1.055, 2.4) : v / 12.92;
    }
    const double xyz[3] = {(0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047,
                           0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2],
                           (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883};
    double f[3];
    for (int i = 0; i < 3; ++i)
      f[i] = xyz[i] > 0.008856 ? std::cbrt(xyz[i]) : 7.787 * xyz[i] + 16.0 / 116.0;
    return std::array<double, 3>{116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])};
  };
  auto p = lab(a), q = lab(b);
  return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                   (p[2] - q[2]) * (p[2] - q[2]));
}

}  // namespace

TEST_CASE("timeline colours: collectives apart from phases, red only for problems") {
  // Phases and collectives share one axis in the viewer: no op may look like a phase.
  for (const KindStyle& op : kCollectiveKinds)
    for (const KindStyle& phase : kPhaseKinds) {
      INFO(op.id << " " << phase.id);
      CHECK(colour_distance(op.rgb, phase.rgb) >= 20);
    }
  // Neither a phase nor an op may look like a problem marker.
  for (const KindStyle& problem : kProblemKinds) {
    if (!problem.rgb) continue;  // "ok" has no colour of its own
    auto apart = [&](const auto& table) {
      for (const KindStyle& k : table) {
        INFO(problem.id << " " << k.id);
        CHECK(colour_distance(k.rgb, problem.rgb) >= 20);
      }
    };
    apart(kPhaseKinds);
    apart(kCollectiveKinds);
  }
  for (size_t i = 0; i < std::size(kCollectiveKinds); ++i)
    for (size_t j = i + 1; j < std::size(kCollectiveKinds); ++j)
      CHECK(colour_distance(kCollectiveKinds[i].rgb, kCollectiveKinds[j].rgb) >= 20);
}

TEST_CASE("find zone: statistics, a log-scale histogram and the zones of one bar") {
  std::vector<TimelineInterval> v;
  auto add = [&](int64_t rank, const char* name, double start, double dur) {
    TimelineInterval iv;
    iv.rank = rank;
    iv.thread = "t";
    iv.name = name;
    iv.start_us = start;
    iv.end_us = start + dur;
    v.push_back(iv);
  };
  add(0, "backend_compile", 0, 10);
  add(0, "backend_compile", 20, 1000);
  add(1, "backend_compile", 0, 100);
  add(1, "backend_compile", 200, 100000);
  add(1, "dynamo", 0, 5);
  Timeline t = build_timeline(v);
  ZoneSearch z = search_zones(t, "backend", 4);
  REQUIRE(z.matches.size() == 4);
  CHECK(t.intervals[z.matches[0]].end_us - t.intervals[z.matches[0]].start_us == 100000);
  CHECK(z.stats.count == 4);
  CHECK(z.stats.total_us == Approx(101110));
  CHECK(z.stats.mean_us == Approx(25277.5));
  CHECK(z.stats.median_us == Approx(550));
  CHECK(z.stats.min_us == 10);
  CHECK(z.stats.max_us == 100000);
  // log10 from 1 to 5 in four bins: one zone in each decade.
  CHECK(z.histogram.counts == std::vector<size_t>{1, 1, 1, 1});
  CHECK(z.histogram.edge(2) == Approx(1000));
  CHECK(z.per_rank.at(0).count == 2);
  CHECK(z.per_rank.at(1).median_us == Approx(50050));
  CHECK(z.per_rank_counts.at(1) == std::vector<size_t>{0, 1, 0, 1});
  auto in_bin = zones_in_bin(t, z, 2);
  REQUIRE(in_bin.size() == 1);
  CHECK(t.intervals[in_bin[0]].end_us - t.intervals[in_bin[0]].start_us == 1000);
  CHECK(search_zones(t, "nothing").stats.count == 0);
  CHECK(search_zones(t, "").stats.count == 5);
}
