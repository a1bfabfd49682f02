// The one rank-colour rule: the report's old hsl() values, distinct hues, readable tones, and
// the nearest xterm colour worked out by hand from the palette's levels.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "tlscope/views/rank_colors.hpp"

using namespace tlscope::views;

namespace {

// WCAG relative luminance and contrast ratio.
double luminance(Rgb c) {
  auto lin = [](uint8_t v) {
    double s = v / 255.0;
    return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

double contrast(Rgb a, Rgb b) {
  double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace

TEST_CASE("Rank colours are the report's hsl(67k, 65%, 85%) as RGB") {
  // hsl(0,65%,85%): a = 0.65 * 0.15 = 0.0975; r = 0.85 + a = 0.9475 -> 242, g = b = 0.7525 -> 192.
  CHECK(rank_color(0) == Rgb{242, 192, 192});
  CHECK(css_color(rank_color(0)) == "#f2c0c0");
  // Rank 2: hue 134, green dominant; rank 360 comes round to rank 0's hue.
  Rgb two = rank_color(2);
  CHECK(two.g > two.r);
  CHECK(two.g > two.b);
  CHECK(rank_color(360) == rank_color(0));
  // The hue does not depend on a rank count: owner sets take their first rank's colour.
  CHECK(owners_color({3, 1}) == rank_color(3));
  CHECK(owners_color({}) == rank_color(-1));
}

TEST_CASE("Rank colours differ between ranks and read well under their text") {
  // 48 ranks have 48 distinct colours in both tones (at 64 two light ones round together).
  std::set<std::string> light, deep;
  for (int64_t r = 0; r < 48; ++r) {
    light.insert(css_color(rank_color(r, RankTone::kLight)));
    deep.insert(css_color(rank_color(r, RankTone::kDeep)));
    INFO("rank " << r);
    // Dark text on the light tone (report, terminal), light text on the deep tone (viewer).
    CHECK(contrast(rank_color(r, RankTone::kLight), Rgb{0, 0, 0}) >= 7.0);
    CHECK(contrast(rank_color(r, RankTone::kDeep), Rgb{235, 235, 235}) >= 4.5);
  }
  CHECK(light.size() == 48);
  CHECK(deep.size() == 48);
}

TEST_CASE("The nearest xterm colour comes from the 6x6x6 cube or the grey ramp") {
  CHECK(nearest_xterm_color({0, 0, 0}) == 16);
  CHECK(nearest_xterm_color({255, 255, 255}) == 231);
  CHECK(nearest_xterm_color({255, 0, 0}) == 196);
  CHECK(nearest_xterm_color({128, 128, 128}) == 244);  // grey 8 + 10 * 12, exact
  // (242, 192, 192): levels 255, 175, 175 -> 16 + 36 * 5 + 6 * 3 + 3 = 217 (distance 747; the
  // nearest grey, 198 or 208, is farther).
  CHECK(nearest_xterm_color(rank_color(0)) == 217);
}
