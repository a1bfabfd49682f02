// Texts that used to run past the right edge of their panel in a 1024x640 window (the smallest
// the viewer is meant for) now wrap or flow onto the next line: checked through the rectangles
// of the --dump-ui items against the panel's visible area ("panel-area"), on the recompiles
// sample (long file paths, many compiles) and the real multi_rank_schedule log (a parity line).
#include <catch2/catch.hpp>

#include "gui/gui_support.hpp"

namespace fs = std::filesystem;

namespace {

gui_test::Dump panel_at_1024(const std::vector<std::string>& inputs, const std::string& panel,
                             const std::string& select, const fs::path& dir) {
  tlscope::gui::ViewerOptions o;
  o.test = true;  // no remembered layout or recent files
  o.inputs = inputs;
  o.panel = panel;
  o.select = select;
  o.width = 1024;
  o.height = 640;
  o.dump_ui_path = (dir / (panel + ".json")).string();
  o.screenshot_path = gui_test::artifact("fit_1024_" + panel + ".png");
  auto r = tlscope::gui::run_viewer(o);
  INFO(r.error);
  REQUIRE(r.ok);
  return gui_test::read_dump(o.dump_ui_path);
}

// The item of `kind` whose text starts with `prefix` lies within the panel's width.
void check_fits(const gui_test::Dump& d, const std::string& kind, const std::string& prefix) {
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  const gui_test::Item* area = d.find("panel-area", "");
  REQUIRE(area != nullptr);
  const gui_test::Item* item = nullptr;
  for (const auto& i : d.items)
    if (i.kind == kind && i.text.rfind(prefix, 0) == 0) item = &i;
  INFO(kind << " " << prefix);
  REQUIRE(item != nullptr);
  REQUIRE(item->x >= 0);  // it has a rectangle
  INFO(item->text << ": " << item->x << " + " << item->w << " in " << area->x << " + " << area->w);
  CHECK(item->x >= area->x);
  CHECK(item->x + item->w <= area->x + area->w);
}

}  // namespace

TEST_CASE("panels at 1024x640: long labels wrap inside the panel") {
  if (!gui_test::have_display()) return;
  const fs::path dir = gui_test::scratch("panel_fit");
  const std::string logs = gui_test::sample_logs(dir, "recompiles");
  REQUIRE(!logs.empty());
  // The compile tree's counts after its filter and buttons.
  check_fits(panel_at_1024({logs}, "compile-tree", "", dir), "label", "14 compiles, 3 frames");
  // A compile's frame line: its function and the sample's source path (absolute in a plain build;
  // relative where ccache's CCACHE_BASEDIR rewrote the compiler's paths).
  check_fits(panel_at_1024({logs}, "compile", "compile:0/0", dir), "label",
             "frame: scaled_relu at ");
  // Find zone's statistics line.
  check_fits(panel_at_1024({logs}, "find-zone", "", dir), "stat", "all ranks: ");
  // The provenance panel's explanation when the log has none.
  check_fits(panel_at_1024({logs}, "provenance", "", dir), "label", "No Inductor provenance");
}

TEST_CASE("panels at 1024x640: the ranks panel's parity line wraps inside the panel") {
  if (!gui_test::have_display()) return;
  const fs::path dir = gui_test::scratch("panel_fit_parity");
  check_fits(panel_at_1024({gui_test::kLogs + "/multi_rank_schedule"}, "divergence", "", dir),
             "parity", "rank 1, compile 0/0: ");
}
