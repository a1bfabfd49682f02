// The summary's compile-time bar (phase_bar.hpp).
#include "phase_bar.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "terminal_text.hpp"

namespace tlscope::cli {

std::vector<BarSegment> compile_phase_segments(const std::vector<views::PhaseTotal>& run,
                                               size_t width) {
  std::map<std::string, double> self_by_name;
  double total = 0;
  for (const views::PhaseTotal& p : run) {
    if (!(p.self_seconds > 0)) continue;  // also drops NaN from a hostile duration
    self_by_name[p.name] += p.self_seconds;
    total += p.self_seconds;
  }
  std::vector<BarSegment> segments;
  if (!(total > 0) || !std::isfinite(total)) return segments;
  for (const auto& [name, seconds] : self_by_name) segments.push_back({name, seconds, '.', 0});
  std::stable_sort(segments.begin(), segments.end(),
                   [](const BarSegment& a, const BarSegment& b) { return a.seconds > b.seconds; });
  if (segments.size() > kBarPhases) {
    BarSegment other{"other", 0, '.', 0};
    for (size_t i = kBarPhases; i < segments.size(); ++i) other.seconds += segments[i].seconds;
    segments.resize(kBarPhases);
    segments.push_back(other);
  }
  for (size_t i = 0; i < segments.size() && i < kBarPhases; ++i)
    segments[i].mark = static_cast<char>('A' + i);
  // Widths by running sums, so they add up to `width` exactly whatever the rounding.
  double before = 0;
  size_t drawn = 0;
  for (BarSegment& s : segments) {
    before += s.seconds;
    const size_t end = std::min(
        width, static_cast<size_t>(std::lround(before / total * static_cast<double>(width))));
    s.width = end > drawn ? end - drawn : 0;
    drawn += s.width;
  }
  return segments;
}

std::vector<std::string> compile_phase_bar(const std::vector<views::PhaseTotal>& run,
                                           size_t width) {
  std::vector<BarSegment> segments = compile_phase_segments(run, width);
  if (segments.empty()) return {};
  double total = 0;
  for (const BarSegment& s : segments) total += s.seconds;
  std::string bar = "  [", legend = "  ";
  for (const BarSegment& s : segments) {
    bar.append(s.width, s.mark);
    char numbers[64];
    std::snprintf(numbers, sizeof numbers, " %.2f s (%.0f%%)", s.seconds, 100 * s.seconds / total);
    legend += legend.size() > 2 ? "  " : " ";
    legend += s.mark;
    legend += ' ';
    legend += terminal_safe(s.name);
    legend += numbers;
  }
  bar += "]";
  return {bar, legend};
}

}  // namespace tlscope::cli
