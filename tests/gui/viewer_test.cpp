// The viewer in a real window (the runner provides Xvfb + Mesa llvmpipe): it must draw the
// fixture database's timeline with the expected items and save a non-blank screenshot.
#include <stb/stb_image.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "gui/gui_support.hpp"
#include "tlscope/gui/viewer.hpp"
#include "views/schema_fixture.hpp"

using tlscope::gui::run_viewer;
using tlscope::gui::ViewerOptions;

#if defined(TLSCOPE_SANITIZED)
// Mesa's GL driver (dlopen'ed by GLX) leaks a few small blocks per context and is unloaded before
// LeakSanitizer can name it, so no module suppression matches. Leak checking of tlscope's own
// code (views, queries, TensorGrid) runs in the other suites.
extern "C" const char* __asan_default_options() {
  return "detect_leaks=0";
}
#endif

namespace {

std::string out_path(const std::string& name) {
  return std::string(TLSCOPE_BINARY_DIR) + "/tests/" + name;
}

using gui_test::have_display;

// Rank 1 gets a 60 ms step and, 20 ms after it, fifty 1-us zones 2 us apart (100 us in all):
// at any window width below ~4900 px they are narrower than 3 px together and fold into one.
std::string rank1_rows() {
  const double t0 = 1733527213926572.8;  // dynamo's B in chromium_events.log
  std::string sql =
      "INSERT INTO chromium_event_rows(id, event_id, file_id, rank, name, cat, ph, ts, dur, pid, "
      "tid) VALUES ";
  char row[200];
  std::snprintf(row, sizeof row, "(100, 100, 3, 1, 'rank1_step', 'x', 'X', %.1f, 60000, 0, 0)",
                t0 + 20000);
  sql += row;
  for (int i = 0; i < 50; ++i) {
    std::snprintf(row, sizeof row, ", (%d, %d, 3, 1, 'tiny', 'x', 'X', %.1f, 1, 0, 0)", 101 + i,
                  101 + i, t0 + 100000 + 2 * i);
    sql += row;
  }
  return sql + ";";
}

}  // namespace

// Panels are tabs now, and only the shown one draws: the timeline and the tensor grid are
// checked in two runs (the same assertions as when all windows drew at once).
TEST_CASE("Viewer draws the timeline, tensor and tables and saves a screenshot") {
  if (!have_display()) return;
  ViewerOptions opts;
  opts.test = true;  // no remembered layout or recent files
  opts.inputs = {tlscope::test::make_fixture_db(out_path("gui_fixture.db"), rank1_rows())};
  opts.screenshot_path = out_path("gui_screenshot.png");
  opts.frames = 4;
  opts.tensor_shape = "2,3,4,5";
  opts.panel = "tensors";
  auto tensors = run_viewer(opts);
  INFO(tensors.error);
  REQUIRE(tensors.ok);
  // 2*3*4*5 cells, all inside the tensors panel at the default 26 px per cell.
  CHECK(tensors.stats.tensor_cells == 120);

  opts.panel = "timeline";
  std::filesystem::remove(opts.screenshot_path);
  auto r = run_viewer(opts);
  INFO(r.error);
  REQUIRE(r.ok);
  // The 4 frames asked for are counted from the first with the data on screen; frames drawn
  // while the open's thread still reads the view models come before them.
  CHECK(r.stats.frames >= 4);
  // Lane "file 1": dynamo, entire_frame_compile, backend_compile (3 items, none folded).
  // Lane rank 1: rank1_step plus one folded item for the 50 tiny zones.
  CHECK(r.stats.timeline_items == 5);
  CHECK(r.stats.timeline_folded == 1);
  CHECK(r.stats.timeline_zones == 3 + 1 + 50);

  int w = 0, h = 0, channels = 0;
  unsigned char* px = stbi_load(opts.screenshot_path.c_str(), &w, &h, &channels, 3);
  REQUIRE(px != nullptr);
  CHECK(w == 1280);
  CHECK(h == 800);
  CHECK(w == r.stats.framebuffer_width);
  // Not uniform: the luminance varies and many distinct colours appear.
  double sum = 0, sum2 = 0;
  std::set<unsigned> colours;
  const size_t n = static_cast<size_t>(w) * static_cast<size_t>(h);
  for (size_t i = 0; i < n; ++i) {
    double y = 0.299 * px[3 * i] + 0.587 * px[3 * i + 1] + 0.114 * px[3 * i + 2];
    sum += y;
    sum2 += y * y;
    if (colours.size() < 5000) colours.insert(px[3 * i] << 16 | px[3 * i + 1] << 8 | px[3 * i + 2]);
  }
  double mean = sum / static_cast<double>(n);
  double variance = sum2 / static_cast<double>(n) - mean * mean;
  stbi_image_free(px);
  CHECK(variance > 100.0);
  CHECK(colours.size() > 20);
}

TEST_CASE("Viewer zoomed to a typed large shape draws only the summary cells") {
  if (!have_display()) return;
  ViewerOptions opts;
  opts.test = true;  // no remembered layout or recent files
  opts.inputs = {tlscope::test::make_fixture_db(out_path("gui_fixture_big.db"))};
  opts.screenshot_path = out_path("gui_screenshot_big.png");
  opts.frames = 2;
  opts.tensor_shape = "1000,1000";
  opts.panel = "tensors";
  auto r = run_viewer(opts);
  INFO(r.error);
  REQUIRE(r.ok);
  // 1000x1000 summarises to 3 + 1 + 3 slots per dim: 7 x 7 = 49 cells.
  CHECK(r.stats.tensor_cells == 49);
  opts.panel = "timeline";
  r = run_viewer(opts);
  REQUIRE(r.ok);
  CHECK(r.stats.timeline_items == 3);
  CHECK(std::filesystem::file_size(opts.screenshot_path) > 1000);
}

TEST_CASE("Viewer refuses a missing database before opening any window") {
  ViewerOptions opts;
  opts.test = true;  // no remembered layout or recent files
  opts.inputs = {out_path("gui_no_such.db")};
  auto r = run_viewer(opts);
  CHECK_FALSE(r.ok);
  CHECK(r.input_error);
  CHECK(r.error == opts.inputs[0] + ": no such file or directory");
  CHECK(r.stats.frames == 0);
}
