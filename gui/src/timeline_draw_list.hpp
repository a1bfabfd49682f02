// The timeline's draw list: rectangles and label positions for one frame, built from the view
// model's layout without ImGui, so the panel draws it and the headless bench
// (`tlscope gui --bench-timeline N`) measures exactly what a frame costs.
#pragma once

#include <cstdint>
#include <vector>

#include "tlscope/views/timeline.hpp"

namespace tlscope::gui {

// Where each row of the timeline sits: lanes stack, a collapsed lane shows its first depth only,
// a lane folded into its rank group shows nothing.
struct TimelineRows {
  float row_height = 18;
  std::vector<float> row_top;   // per Timeline row: y from the top of the lanes, -1 when hidden
  std::vector<float> lane_top;  // per lane: y of its first row, -1 when hidden
  float height = 0;             // all shown rows, with the gaps between lanes
};

TimelineRows layout_rows(const views::Timeline& timeline, const std::vector<uint8_t>& collapsed,
                         const std::vector<uint8_t>& hidden, float row_height, float lane_gap);

struct DrawRect {
  float x0, y0, x1, y1;  // relative to the canvas' top-left corner
  uint32_t rgba;         // ImGui's IM_COL32 packing (A B G R from the high byte)
  uint32_t interval;     // the first zone's interval
  uint32_t count;        // > 1 for folded zones
  bool instant;
};

struct TimelineDrawList {
  std::vector<DrawRect> rects;
  std::vector<uint32_t> labelled;  // indices into rects wide enough for their name or count
  size_t folded = 0;
  // Per Timeline row, the right edge of the last labelled rect: zones deeper than the depth cap
  // share the last row and overlap, and only the first of overlapping zones gets a label.
  std::vector<float> label_end;
  void clear() {
    rects.clear();
    labelled.clear();
    folded = 0;
  }
};

// The colour of a zone: red for a problem, else its phase or collective kind's colour.
uint32_t zone_colour(const views::TimelineInterval& iv);
uint32_t folded_colour();
// 0xRRGGBB from the kind tables -> IM_COL32 packing, opaque.
constexpr uint32_t packed_rgb(uint32_t rgb) {
  return 0xff000000u | ((rgb & 0xffu) << 16) | (rgb & 0xff00u) | ((rgb >> 16) & 0xffu);
}

// Fills `out` with the items of `frame` whose rows are shown and inside [0, view_height) after
// scrolling by `scroll_y`. Labels go to rects wider than `min_label_px` that do not overlap a
// labelled rect before them in their row.
void build_draw_list(const views::Timeline& timeline, const views::TimelineFrame& frame,
                     const TimelineRows& rows, float scroll_y, float view_height,
                     float min_label_px, TimelineDrawList& out);

}  // namespace tlscope::gui
