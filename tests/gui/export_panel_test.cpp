// The export panel through --dump-ui on the real export.log, facts read off its lines: line 48's
// propagate_real_tensors_provenance (one data-dependent expression, Eq((((-u0)//3)) + 5, 0),
// decided False at test_draft_export.py:279), traced back to line 28's create_unbacked_symbol u0
// at test_draft_export.py:269 (a = x.item()); the seven guard_added records of lines 37-59; and
// line 60's exported_program. At 1280x800 and at 1024x640 every text lies inside the panel. A log
// without export records says so.
#include <catch2/catch.hpp>

#include "gui/gui_support.hpp"

using gui_test::Dump;

namespace {

Dump export_panel(const std::string& log, const std::filesystem::path& dir, int width, int height,
                  const std::string& shot) {
  tlscope::gui::ViewerOptions o;
  o.test = true;  // no remembered layout or recent files
  o.inputs = {log};
  o.panel = "export";
  o.width = width;
  o.height = height;
  o.dump_ui_path = (dir / (shot + ".json")).string();
  o.screenshot_path = gui_test::artifact(shot + ".png");
  auto r = tlscope::gui::run_viewer(o);
  INFO(r.error);
  REQUIRE(r.ok);
  return gui_test::read_dump(o.dump_ui_path);
}

size_t count_text(const Dump& d, const std::string& kind, const std::string& needle) {
  size_t n = 0;
  for (const auto& i : d.items) n += i.kind == kind && i.text.find(needle) != std::string::npos;
  return n;
}

// Every item the panel drew with a rectangle ends inside the panel's visible width.
void check_nothing_clipped(const Dump& d) {
  const gui_test::Item* area = d.find("panel-area", "export");
  REQUIRE(area != nullptr);
  size_t checked = 0;
  for (const auto& i : d.items) {
    if (i.x < 0 || i.y < area->y || i.y > area->y + area->h) continue;  // no rectangle, or below
    if (i.kind == "nav" || i.kind == "tab" || i.kind == "panel-area" || i.kind == "menu") continue;
    if (i.x < area->x) continue;            // the navigation and details panes, left of the panel
    if (i.x > area->x + area->w) continue;  // the details pane, right of it
    INFO(i.kind << ": " << i.text << ": " << i.x << " + " << i.w << " in " << area->x << " + "
                << area->w);
    CHECK(i.x + i.w <= area->x + area->w);
    ++checked;
  }
  CHECK(checked >= 10);
}

}  // namespace

TEST_CASE("export panel of export.log: the issue traced to x.item(), 7 guards, the program") {
  if (!gui_test::have_display()) return;
  auto dir = gui_test::scratch("export_panel");
  const std::string log = gui_test::kLogs + "/export.log";
  Dump d = export_panel(log, dir, 1280, 800, "export_1280");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.panel == "export");
  CHECK(d.has("nav", "Export"));
  CHECK(d.has("summary", "1 exported program, 1 issue "));
  CHECK(d.has("summary", "7 guards it added, 1 symbol it created."));
  CHECK(d.has("section", "Issues (1)"));
  CHECK(d.has("section", "Guards added (7)"));
  CHECK(count_text(d, "issue", "Data-dependent expression") == 1);
  CHECK(count_text(d, "issue", "Guard added") == 7);
  CHECK(d.has("expression", "expression: Eq((((-u0)//3)) + 5, 0)"));
  CHECK(d.has("result", "evaluated to: False"));
  CHECK(d.has("frame", "test_draft_export.py:279"));
  CHECK(d.has("code", "return z[:a]"));
  CHECK(d.has("local", "local a = (((-u0)//3)) + 5"));
  // The provenance's last step is the unbacked symbol's creation at line 269.
  CHECK(d.has("provenance",
              "unbacked symbol u0 created at "
              "/data/users/angelayi/pytorch/test/export/test_draft_export.py:269 (a = "
              "x.item())"));
  CHECK(d.has("provenance", "-u0 = neg(u0)  at test_draft_export.py:270  a = -a"));
  CHECK(d.has("symbol", "symbol u0: unbacked (a data-dependent value)"));
  // Line 57's guard: u1 has no creation record, s0's source comes from symbol_to_sources.
  CHECK(d.has("expression", "expression: (((-u1)//3)) + 5 < 2*s0"));
  CHECK(d.has("symbol", "symbol u1: no creation record in the log"));
  CHECK(d.has("created-symbol", "u0  unbacked"));
  CHECK(d.has("program", ":60  ("));
  check_nothing_clipped(d);

  Dump small = export_panel(log, dir, 1024, 640, "export_1024");
  INFO(small.error << "\n" << small.all());
  REQUIRE(small.ok);
  CHECK(small.has("provenance", "(a = x.item())"));
  check_nothing_clipped(small);
}

TEST_CASE("export panel of a torch.compile log says there is nothing exported") {
  if (!gui_test::have_display()) return;
  auto dir = gui_test::scratch("export_panel_none");
  Dump d = gui_test::view({gui_test::kLogs + "/simple.log"}, "export", "", dir, "export_none");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("label", "The logs hold no torch.export records"));
  CHECK_FALSE(d.has("section", "Issues"));
}
