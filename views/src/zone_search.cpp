// Zone search, duration statistics and the log-scale histogram.
#include "tlscope/views/zone_search.hpp"

#include <algorithm>
#include <cmath>

namespace tlscope::views {

namespace {

double duration(const TimelineInterval& iv) {
  return iv.end_us - iv.start_us;
}

// The smallest positive duration the histogram resolves: 1 ns.
constexpr double kFloorUs = 1e-3;

}  // namespace

DurationStats duration_stats(std::vector<double> d) {
  DurationStats s;
  s.count = d.size();
  if (d.empty()) return s;
  std::sort(d.begin(), d.end());
  for (double v : d) s.total_us += v;
  s.mean_us = s.total_us / static_cast<double>(d.size());
  const size_t mid = d.size() / 2;
  s.median_us = d.size() % 2 ? d[mid] : (d[mid - 1] + d[mid]) / 2;
  s.min_us = d.front();
  s.max_us = d.back();
  return s;
}

double DurationHistogram::edge(size_t i) const {
  if (counts.empty()) return min_us;
  const double lo = std::log10(min_us), hi = std::log10(max_us);
  return std::pow(10.0,
                  lo + (hi - lo) * static_cast<double>(i) / static_cast<double>(counts.size()));
}

size_t DurationHistogram::bin_of(double duration_us) const {
  if (counts.empty()) return 0;
  const double lo = std::log10(min_us), hi = std::log10(max_us);
  const double v = std::log10(std::max(duration_us, min_us));
  if (!(hi > lo)) return 0;
  const double at = (v - lo) / (hi - lo) * static_cast<double>(counts.size());
  return std::min(counts.size() - 1, static_cast<size_t>(std::max(0.0, at)));
}

ZoneSearch search_zones(const Timeline& timeline, std::string_view text, size_t bins) {
  ZoneSearch z;
  std::vector<double> all;
  std::map<int64_t, std::vector<double>> by_rank;
  for (uint32_t i = 0; i < timeline.intervals.size(); ++i) {
    const TimelineInterval& iv = timeline.intervals[i];
    if (!(iv.end_us >= iv.start_us)) continue;  // rejected by build_timeline too
    if (iv.name.find(text) == std::string::npos) continue;
    z.matches.push_back(i);
    all.push_back(duration(iv));
    by_rank[iv.rank].push_back(duration(iv));
  }
  std::stable_sort(z.matches.begin(), z.matches.end(), [&](uint32_t a, uint32_t b) {
    return duration(timeline.intervals[a]) > duration(timeline.intervals[b]);
  });
  z.stats = duration_stats(all);
  if (z.matches.empty() || bins == 0) return z;
  z.histogram.min_us = std::max(kFloorUs, z.stats.min_us);
  z.histogram.max_us = std::max(z.histogram.min_us * 1.0001, z.stats.max_us);
  z.histogram.counts.assign(bins, 0);
  for (double d : all) ++z.histogram.counts[z.histogram.bin_of(d)];
  for (auto& [rank, durations] : by_rank) {
    auto& counts = z.per_rank_counts[rank];
    counts.assign(bins, 0);
    for (double d : durations) ++counts[z.histogram.bin_of(d)];
    z.per_rank[rank] = duration_stats(std::move(durations));
  }
  return z;
}

std::vector<uint32_t> zones_in_bin(const Timeline& timeline, const ZoneSearch& search, size_t bin) {
  std::vector<uint32_t> out;
  for (uint32_t i : search.matches)
    if (search.histogram.bin_of(duration(timeline.intervals[i])) == bin) out.push_back(i);
  return out;
}

}  // namespace tlscope::views
