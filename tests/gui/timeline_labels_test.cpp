// The timeline's label column in a real window (Xvfb + Mesa), through --dump-ui: it grows to the
// widest lane label, and where the panel has no room for that (a 1024x640 window), a rank group's
// label is cut in the middle, keeping its lane's thread, and never runs into the lanes; the whole
// label stays in the dump (and in the label's tooltip).
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "common/many_rank_logs.hpp"
#include "gui/gui_support.hpp"
#include "gui/ingested_db.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

namespace fs = std::filesystem;

namespace {

// 64 ranks where rank 2 issues another collective: ranks 0-1 and 3-63 fold into one group.
std::string desync_64_db(const fs::path& dir) {
  const fs::path logs = dir / "logs";
  tlscope::test::write_many_rank_desync_logs(logs, 64, 8, 2, 5);
  return gui_test::ingested_db((dir / "desync64.db").string(), {logs.string()});
}

gui_test::Dump timeline_at(const std::string& db, const fs::path& dir, int width, int height) {
  tlscope::gui::ViewerOptions o;
  o.test = true;  // no remembered layout or recent files
  o.inputs = {db};
  o.panel = "timeline";
  o.width = width;
  o.height = height;
  o.frames = 4;
  o.dump_ui_path = (dir / ("timeline_" + std::to_string(width) + ".json")).string();
  o.screenshot_path = gui_test::artifact("timeline_labels_" + std::to_string(width) + "x" +
                                         std::to_string(height) + ".png");
  auto r = tlscope::gui::run_viewer(o);
  INFO(r.error);
  REQUIRE(r.ok);
  return gui_test::read_dump(o.dump_ui_path);
}

const std::string kDot = " \xC2\xB7 ";
const std::string kGroup = "ranks 0-1, 3-63 (63)" + kDot + "collectives";

// The drawn label of the group's collectives lane, and the left edge of the ruler's first label
// (the lanes start just before it).
struct Column {
  const gui_test::Item* label = nullptr;
  float lanes_x = 0;
};

Column column_of(const gui_test::Dump& d) {
  Column c;
  for (const auto& i : d.items) {
    if (i.kind == "lane-label" && i.text.rfind("[+] ranks 0-1", 0) == 0 && i.text.size() > 11 &&
        i.text.compare(i.text.size() - 11, 11, "collectives") == 0)
      c.label = &i;
    if (i.kind == "ruler" && c.lanes_x == 0) c.lanes_x = i.x;
  }
  return c;
}

}  // namespace

TEST_CASE(
    "timeline: the label column fits a rank group's label, and cuts it where there is no room") {
  if (!gui_test::have_display()) return;
  const fs::path dir = gui_test::scratch("timeline_labels");
  const std::string db = desync_64_db(dir);

  const gui_test::Dump wide = timeline_at(db, dir, 1600, 900);
  INFO(wide.error << "\n" << wide.all());
  REQUIRE(wide.ok);
  CHECK(wide.has("group", kGroup));
  const Column w = column_of(wide);
  REQUIRE(w.label != nullptr);
  CHECK(w.label->text == "[+] " + kGroup);  // whole: the column grew to it
  REQUIRE(w.lanes_x > 0);
  CHECK(w.label->x + w.label->w <= w.lanes_x);
  // Rank 2's own lanes are labelled whole too.
  CHECK(wide.has("lane-label", "  rank 2" + kDot + "collectives"));

  const gui_test::Dump narrow = timeline_at(db, dir, 1024, 640);
  INFO(narrow.error << "\n" << narrow.all());
  REQUIRE(narrow.ok);
  CHECK(narrow.has("group", kGroup));  // the whole label is still in the dump
  const Column n = column_of(narrow);
  REQUIRE(n.label != nullptr);
  const std::string& cut = n.label->text;
  CHECK(cut.size() < ("[+] " + kGroup).size());
  CHECK(cut.find("...") != std::string::npos);
  CHECK(cut.find(kDot + "collectives") == cut.size() - (kDot + "collectives").size());
  REQUIRE(n.lanes_x > 0);
  CHECK(n.label->x + n.label->w <= n.lanes_x);
  CHECK(n.label->w < w.label->w);
}
