// The timeline's headless draw list (gui/src/timeline_draw_list.cpp): zones nested deeper than
// the depth cap share the lane's last row, where they overlap; only the first of overlapping
// zones is labelled, so their names are never drawn over each other (seen on
// multi_rank_schedule, whose Inductor phases nest 14 deep).
#include <catch2/catch.hpp>

#include "timeline_draw_list.hpp"

using namespace tlscope;

TEST_CASE("timeline draw list: overlapping zones past the depth cap get one label per place") {
  // Six zones, each nested in the one before, all wide; the cap of 3 puts the last three in row 3.
  std::vector<views::TimelineInterval> ivs;
  for (int i = 0; i < 6; ++i) {
    views::TimelineInterval iv;
    iv.thread = "main";
    iv.name = "zone " + std::to_string(i);
    iv.start_us = 10.0 * i;
    iv.end_us = 1000.0 - 10.0 * i;
    ivs.push_back(iv);
  }
  // And a zone after them all, at the first depth: labelled too.
  views::TimelineInterval after;
  after.thread = "main";
  after.name = "after";
  after.start_us = 1100;
  after.end_us = 1900;
  ivs.push_back(after);
  const views::Timeline t = views::build_timeline(ivs, 3);
  REQUIRE(t.lanes.size() == 1);
  REQUIRE(t.lanes[0].depths.size() == 4);
  REQUIRE(t.lanes[0].depths[3].size() == 3);  // zones 3, 4 and 5 share the last row

  const views::TimelineFrame frame = views::layout_timeline(t, {0, 2000, 1000, 3});
  const gui::TimelineRows rows = gui::layout_rows(t, {}, {}, 18, 6);
  gui::TimelineDrawList list;
  gui::build_draw_list(t, frame, rows, 0, 1000, 28, list);
  REQUIRE(list.rects.size() == 7);  // every zone is drawn
  std::vector<std::string> labelled;
  for (uint32_t i : list.labelled) labelled.push_back(t.intervals[list.rects[i].interval].name);
  // Rows 0-2 hold zones 0-2 (and "after" in row 0); in row 3 only zone 3, the outermost.
  CHECK(labelled == std::vector<std::string>{"zone 0", "after", "zone 1", "zone 2", "zone 3"});
  // No two labelled rects of a row overlap.
  for (size_t a = 0; a < list.labelled.size(); ++a)
    for (size_t b = a + 1; b < list.labelled.size(); ++b) {
      const auto& x = list.rects[list.labelled[a]];
      const auto& y = list.rects[list.labelled[b]];
      if (x.y0 == y.y0) CHECK((x.x1 <= y.x0 || y.x1 <= x.x0));
    }
}
