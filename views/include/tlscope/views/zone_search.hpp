// Find zone (as in Tracy): the zones whose name contains a search text, their duration
// statistics, a log-scale histogram of the durations and the same per rank.
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "tlscope/views/timeline.hpp"

namespace tlscope::views {

struct DurationStats {
  size_t count = 0;
  double total_us = 0, mean_us = 0, median_us = 0, min_us = 0, max_us = 0;
};

// Bins of equal width in log10(duration); zero-length zones (instants) go to the first bin.
struct DurationHistogram {
  double min_us = 0, max_us = 0;  // the range the bins cover
  std::vector<size_t> counts;
  // The bin edges of bin i: [edge(i), edge(i + 1)).
  double edge(size_t i) const;
  size_t bin_of(double duration_us) const;
};

struct ZoneSearch {
  std::vector<uint32_t> matches;  // interval indices, by duration, longest first
  DurationStats stats;
  DurationHistogram histogram;
  std::map<int64_t, DurationStats> per_rank;
  std::map<int64_t, std::vector<size_t>> per_rank_counts;  // the histogram's bins, per rank
};

// Case-sensitive substring match on the interval names; an empty text matches every zone.
ZoneSearch search_zones(const Timeline& timeline, std::string_view text, size_t bins = 40);

DurationStats duration_stats(std::vector<double> durations_us);

// The matches of `search` whose duration falls in histogram bin `bin`, longest first.
std::vector<uint32_t> zones_in_bin(const Timeline& timeline, const ZoneSearch& search, size_t bin);

}  // namespace tlscope::views
