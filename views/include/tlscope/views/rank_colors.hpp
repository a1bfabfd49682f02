// The one colour rule for ranks (log ranks and device-mesh ranks), shared by the HTML report,
// the viewer's palette and the terminal renderer, so a rank looks the same on every screen.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tlscope::views {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
};

// Where the colour sits: behind dark text (the report, the terminal) or behind light text (the
// viewer's dark theme). Both tones of a rank share its hue.
enum class RankTone : uint8_t { kLight, kDeep };

// Rank k's hue is 67 * k degrees (mod 360): neighbouring ranks differ strongly, the first six are
// far apart, and the hue does not depend on how many ranks a screen shows, so rank 3 keeps its
// colour from the 4-rank timeline to the 2x2 mesh of one tensor. kLight is hsl(hue, 65%, 85%),
// kDeep hsl(hue, 60%, 26%). Negative ranks (no rank) are grey.
Rgb rank_color(int64_t rank, RankTone tone = RankTone::kLight);

// An owner set (the mesh ranks holding one block of a sharded tensor) takes its first rank's
// colour; the owners' tag ("r0,2") tells replicated sets apart. Empty sets are grey.
Rgb owners_color(const std::vector<int>& owners, RankTone tone = RankTone::kLight);

// "#f2c0c0", for CSS.
std::string css_color(Rgb color);

// The xterm 256-colour index (16-255: the 6x6x6 cube and the grey ramp) nearest to `color`, for
// terminals: "\x1b[48;5;<index>m" sets it as the background.
int nearest_xterm_color(Rgb color);

}  // namespace tlscope::views
