// The rank colour rule: a hue per rank, a lightness per tone (see rank_colors.hpp).
#include "tlscope/views/rank_colors.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace tlscope::views {

namespace {

constexpr int kHueStep = 67;  // degrees between consecutive ranks

// CSS Color 4's hsl() to sRGB, rounded to 8 bits as browsers do.
Rgb hsl(double hue, double saturation, double lightness) {
  auto channel = [&](double n) {
    double k = std::fmod(n + hue / 30.0, 12.0);
    double a = saturation * std::min(lightness, 1.0 - lightness);
    double v = lightness - a * std::max(-1.0, std::min({k - 3.0, 9.0 - k, 1.0}));
    return static_cast<uint8_t>(std::lround(v * 255.0));
  };
  return {channel(0), channel(8), channel(4)};
}

}  // namespace

Rgb rank_color(int64_t rank, RankTone tone) {
  bool light = tone == RankTone::kLight;
  if (rank < 0) return light ? Rgb{210, 210, 210} : Rgb{80, 80, 80};
  double hue = static_cast<double>((rank % 360) * kHueStep % 360);
  return light ? hsl(hue, 0.65, 0.85) : hsl(hue, 0.60, 0.26);
}

Rgb owners_color(const std::vector<int>& owners, RankTone tone) {
  return rank_color(owners.empty() ? -1 : owners.front(), tone);
}

std::string css_color(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

int nearest_xterm_color(Rgb c) {
  // xterm's 6x6x6 cube (16-231) has levels 0, 95, 135, ..., 255; its grey ramp (232-255) runs
  // 8, 18, ..., 238.
  static constexpr std::array<int, 6> kLevels = {0, 95, 135, 175, 215, 255};
  auto nearest_level = [](int v) {
    size_t best = 0;
    for (size_t i = 1; i < kLevels.size(); ++i)
      if (std::abs(kLevels[i] - v) < std::abs(kLevels[best] - v)) best = i;
    return best;
  };
  auto distance = [&](int r, int g, int b) {
    return (r - c.r) * (r - c.r) + (g - c.g) * (g - c.g) + (b - c.b) * (b - c.b);
  };
  size_t r = nearest_level(c.r), g = nearest_level(c.g), b = nearest_level(c.b);
  int best = 16 + static_cast<int>(36 * r + 6 * g + b);
  int best_distance = distance(kLevels[r], kLevels[g], kLevels[b]);
  for (int i = 0; i < 24; ++i) {
    int grey = 8 + 10 * i;
    if (distance(grey, grey, grey) < best_distance) {
      best_distance = distance(grey, grey, grey);
      best = 232 + i;
    }
  }
  return best;
}

}  // namespace tlscope::views
