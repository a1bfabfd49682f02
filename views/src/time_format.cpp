// Durations and ruler labels for the timelines.
#include "tlscope/views/time_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tlscope::views {

namespace {

struct Unit {
  const char* name;
  double us;  // microseconds in one unit
};
constexpr Unit kUnits[] = {{"ns", 1e-3}, {"\xC2\xB5s", 1.0}, {"ms", 1e3}, {"s", 1e6}};

// The largest unit that keeps `magnitude_us` at or above one of it (ns below 1 ns).
const Unit& unit_for(double magnitude_us) {
  const Unit* best = &kUnits[0];
  for (const Unit& u : kUnits)
    if (magnitude_us >= u.us) best = &u;
  return *best;
}

}  // namespace

std::string format_duration_us(double us) {
  if (!std::isfinite(us)) return "?";
  const double a = std::fabs(us);
  // Round first so 999.96 µs reads "1.00 ms", not "1000 µs".
  const Unit* u = &unit_for(a);
  double v = a / u->us;
  if (v >= 999.5 && u + 1 < std::end(kUnits)) {
    ++u;
    v = a / u->us;
  }
  char buf[48];
  const char* fmt = v >= 99.95 ? "%s%.0f %s" : v >= 9.995 ? "%s%.1f %s" : "%s%.2f %s";
  if (a == 0) fmt = "%s%.0f %s";
  std::snprintf(buf, sizeof buf, fmt, us < 0 ? "-" : "", v, u->name);
  return buf;
}

double ruler_step_us(double span_us, double max_ticks) {
  if (!(span_us > 0) || !(max_ticks >= 1)) return 1.0;
  double step = std::pow(10.0, std::floor(std::log10(span_us / max_ticks)));
  if (span_us / step > max_ticks) step *= 2;
  if (span_us / step > max_ticks) step *= 2.5;
  if (span_us / step > max_ticks) step *= 2;
  return step;
}

std::string format_ruler_label(double offset_us, double step_us) {
  if (!std::isfinite(offset_us)) return "?";
  // The unit of the larger of the offset and the step: "500 µs", then "1.0 ms" on one ruler,
  // as Tracy labels it.
  const Unit& u = unit_for(std::max(std::fabs(offset_us), std::fabs(step_us)));
  // Digits after the point so that one step changes the label: step 0.2 ms -> 1 decimal.
  const double step_in_unit = step_us / u.us;
  int decimals = 0;
  while (decimals < 3 && step_in_unit * std::pow(10.0, decimals) < 0.999) ++decimals;
  char buf[64];
  double v = offset_us / u.us;
  if (std::fabs(v) < 0.5 * std::pow(10.0, -decimals)) v = 0;  // never "-0 ms"
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, u.name);
  return buf;
}

std::vector<double> ruler_ticks_us(double start_us, double end_us, double step_us,
                                   size_t max_ticks) {
  std::vector<double> ticks;
  if (!(step_us > 0) || !std::isfinite(start_us) || !std::isfinite(end_us)) return ticks;
  // Multiplied, not summed: a thousand additions of 0.1 would drift off the grid.
  const double first = std::ceil(std::max(0.0, start_us) / step_us);
  for (double k = first; ticks.size() <= max_ticks; ++k) {
    const double t = k * step_us;
    if (t > end_us) break;
    ticks.push_back(t);
  }
  return ticks;
}

}  // namespace tlscope::views
