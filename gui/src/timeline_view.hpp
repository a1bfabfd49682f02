// The timeline panel's view: the visible time range and how input moves it (zoom at a point,
// pan, fit, focus on an interval), plus the pinned ruler drawn above the lanes.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace tlscope::gui {

struct TimeRange {
  double start_us = 0, end_us = 1;

  double span() const { return end_us - start_us; }
  // Zooms by `factor` (< 1 zooms in) keeping the time under `frac` (0..1 of the width) in place.
  void zoom_at(double frac, double factor) {
    const double at = start_us + frac * span();
    const double s = std::clamp(span() * factor, 1e-3, 1e13);  // 1 ns .. 115 days
    start_us = at - frac * s;
    end_us = start_us + s;
  }
  void pan(double delta_us) {
    start_us += delta_us;
    end_us += delta_us;
  }
  // Shows [a, b] with `pad` of its length on each side (at least 1 µs).
  void focus(double a, double b, double pad = 0.1) {
    const double len = std::max(1.0, b - a);
    start_us = a - len * pad;
    end_us = b + len * pad;
  }
};

constexpr float kRulerHeight = 24.0f;

// Ticks and labels over [origin.x, origin.x + width) for `view`, time measured from run start.
// Returns the labels drawn (for the UI dump).
int draw_timeline_ruler(ImDrawList* dl, ImVec2 origin, float width, const TimeRange& view);

}  // namespace tlscope::gui
