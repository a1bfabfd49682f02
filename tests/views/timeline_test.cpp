// Timeline view model: lanes, depths, culling and folding, with expected pixels worked out by hand
// from px = (t - viewport.start) * width / (viewport.end - viewport.start), clamped to [-1, w+1].
#include <catch2/catch.hpp>
#include <cmath>

#include "tlscope/views/timeline.hpp"

using namespace tlscope::views;

namespace {

TimelineInterval iv(int64_t rank, std::string thread, std::string name, double s, double e) {
  TimelineInterval i;
  i.rank = rank;
  i.thread = std::move(thread);
  i.name = std::move(name);
  i.start_us = s;
  i.end_us = e;
  return i;
}

// Lane (0,t1): A[0,100] holds B[10,40] and C[50,90]; C holds D[60,70].
// Lane (0,t2): E[0,10].  Lane (1,t1): F[20,30], ten 0.05-us zones G every 0.1 us from 200,
// and H[300,400].
Timeline sample() {
  std::vector<TimelineInterval> v;
  v.push_back(iv(1, "t1", "H", 300, 400));  // out of order on purpose: build sorts
  v.push_back(iv(0, "t1", "A", 0, 100));
  v.push_back(iv(0, "t1", "C", 50, 90));
  v.push_back(iv(0, "t1", "B", 10, 40));
  v.push_back(iv(0, "t1", "D", 60, 70));
  v.push_back(iv(0, "t2", "E", 0, 10));
  v.push_back(iv(1, "t1", "F", 20, 30));
  for (int i = 0; i < 10; ++i) v.push_back(iv(1, "t1", "G", 200 + i * 0.1, 200 + i * 0.1 + 0.05));
  return build_timeline(std::move(v));
}

const std::string& name_of(const Timeline& t, const TimelineItem& item) {
  return t.intervals[item.interval].name;
}

}  // namespace

TEST_CASE("Timeline builds lanes per rank and thread with nesting depths") {
  Timeline t = sample();
  REQUIRE(t.lanes.size() == 3);
  CHECK(t.lanes[0].rank == 0);
  CHECK(t.lanes[0].thread == "t1");
  CHECK(t.lanes[1].thread == "t2");
  CHECK(t.lanes[2].rank == 1);
  // Lane 0: A at depth 0, B and C at depth 1, D at depth 2 -> three rows.
  REQUIRE(t.lanes[0].depths.size() == 3);
  CHECK(t.lanes[0].depths[0].size() == 1);
  CHECK(t.lanes[0].depths[1].size() == 2);
  CHECK(t.intervals[t.lanes[0].depths[2][0].interval].name == "D");
  CHECK(t.lanes[1].first_row == 3);
  CHECK(t.lanes[2].first_row == 4);
  CHECK(t.lanes[2].depths.size() == 1);  // F, G and H follow one another
  CHECK(t.rows == 5);
  CHECK(t.start_us == 0);
  CHECK(t.end_us == 400);
  CHECK(t.lanes[0].max_duration[1] == 40);  // C is 40 us, B 30
}

TEST_CASE("Timeline layout of the whole range folds the tiny zones into one item") {
  Timeline t = sample();
  // [0,400] over 400 px: 1 px per us. The ten G zones are 0.05 px wide and 0.05 px apart,
  // so they fold into one item from 200 to 200.95 px with count 10.
  TimelineFrame f = layout_timeline(t, {0, 400, 400, 3});
  REQUIRE(f.items.size() == 8);
  CHECK(f.zones_visible == 17);
  CHECK(f.folded_items == 1);
  const char* names[] = {"A", "B", "C", "D", "E", "F", "G", "H"};
  const int rows[] = {0, 1, 1, 2, 3, 4, 4, 4};
  const double x0[] = {0, 10, 50, 60, 0, 20, 200, 300};
  const double x1[] = {100, 40, 90, 70, 10, 30, 200.95, 400};
  for (int i = 0; i < 8; ++i) {
    INFO("item " << i);
    CHECK(name_of(t, f.items[i]) == names[i]);
    CHECK(f.items[i].row == rows[i]);
    CHECK(f.items[i].x0 == Approx(x0[i]));
    CHECK(f.items[i].x1 == Approx(x1[i]));
  }
  CHECK(f.items[6].count == 10);
  CHECK(f.items[7].count == 1);
}

TEST_CASE("Timeline layout culls zones outside a zoomed viewport") {
  Timeline t = sample();
  // [55,95] over 400 px: 10 px per us. A spans it (clamped to -1..401); of depth 1 only C
  // reaches in: (50-55)*10 = -50 -> -1, (90-55)*10 = 350; D: 50..150. E ends at 10, F at 30,
  // G starts at 200: all culled.
  TimelineFrame f = layout_timeline(t, {55, 95, 400, 3});
  REQUIRE(f.items.size() == 3);
  CHECK(f.zones_visible == 3);
  CHECK(name_of(t, f.items[0]) == "A");
  CHECK(f.items[0].x0 == -1);
  CHECK(f.items[0].x1 == 401);
  CHECK(name_of(t, f.items[1]) == "C");
  CHECK(f.items[1].x0 == -1);
  CHECK(f.items[1].x1 == Approx(350));
  CHECK(name_of(t, f.items[2]) == "D");
  CHECK(f.items[2].x0 == Approx(50));
  CHECK(f.items[2].x1 == Approx(150));
}

TEST_CASE("Timeline folds only neighbouring narrow zones") {
  // 1 px per us, min 3 px: [0,1] is narrow but the next narrow zone starts 9 px after its end,
  // so it stays alone (count 1); [10,11] and [11.5,12] are 0.5 px apart and fold (count 2);
  // the wide [20,40] ends any fold; [41,42] after it is alone again.
  std::vector<TimelineInterval> v = {iv(0, "", "a", 0, 1), iv(0, "", "b", 10, 11),
                                     iv(0, "", "c", 11.5, 12), iv(0, "", "d", 20, 40),
                                     iv(0, "", "e", 41, 42)};
  Timeline t = build_timeline(v);
  TimelineFrame f = layout_timeline(t, {0, 100, 100, 3});
  REQUIRE(f.items.size() == 4);
  CHECK(f.items[0].count == 1);
  CHECK(f.items[0].x1 == Approx(1));
  CHECK(f.items[1].count == 2);
  CHECK(f.items[1].x0 == Approx(10));
  CHECK(f.items[1].x1 == Approx(12));
  CHECK(name_of(t, f.items[2]) == "d");
  CHECK(name_of(t, f.items[3]) == "e");
  CHECK(f.folded_items == 1);
  // Zoomed in 10x nothing is narrow any more: five separate items.
  CHECK(layout_timeline(t, {0, 100, 1000, 3}).items.size() == 5);
}

TEST_CASE("Timeline nests a partially overlapping zone and rejects bad intervals") {
  std::vector<TimelineInterval> v = {iv(0, "", "a", 0, 10), iv(0, "", "b", 5, 15),
                                     iv(0, "", "bad", 9, 3), iv(0, "", "nan", std::nan(""), 3)};
  Timeline t = build_timeline(v);
  CHECK(t.rejected == 2);
  REQUIRE(t.lanes.size() == 1);
  REQUIRE(t.lanes[0].depths.size() == 2);
  CHECK(t.intervals[t.lanes[0].depths[1][0].interval].name == "b");
  // A zone at depth 0 that ended before the next one starts is not its parent.
  Timeline seq = build_timeline({iv(0, "", "x", 0, 5), iv(0, "", "y", 5, 8)});
  CHECK(seq.lanes[0].depths.size() == 1);
}

TEST_CASE("Timeline layout of an empty or degenerate viewport draws nothing") {
  Timeline t = sample();
  CHECK(layout_timeline(t, {10, 10, 400, 3}).items.empty());
  CHECK(layout_timeline(t, {0, 100, 0, 3}).items.empty());
  CHECK(layout_timeline(build_timeline({}), {0, 100, 100, 3}).items.empty());
}

TEST_CASE("Timeline folding skips runs of tiny zones without visiting each") {
  // 10000 zones [10i, 10i+8] over [0, 100000] at 1000 px: 0.01 px/us, min 3 px = 300 us.
  // Zone 0 opens a fold ending at 8; every zone ending before 8 + 300 (i <= 29) is skipped.
  // Zone 30 (x0 = 3.00 px, fold end 2.98 px) joins and the next jump reaches zone 59, so one
  // zone in 30 is visited: zones 0, 30, ..., 9990 -> 334 visits, one item of count 10000.
  std::vector<TimelineInterval> v;
  for (int i = 0; i < 10000; ++i) v.push_back(iv(0, "", "z", 10.0 * i, 10.0 * i + 8));
  Timeline t = build_timeline(v);
  TimelineFrame f = layout_timeline(t, {0, 100000, 1000, 3});
  REQUIRE(f.items.size() == 1);
  CHECK(f.items[0].count == 10000);
  CHECK(f.zones_visible == 10000);
  CHECK(f.zones_visited == 334);
  CHECK(f.items[0].x1 == Approx(999.98));
}
