// The panels through --dump-ui on sample scenarios and real logs: what each panel drew, checked
// against what the scenario did (its truth.json says rank 2 desyncs, a rank misses a collective,
// ...) and against the database. Screenshots of each panel are kept in <build>/tests/gui_screens.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "gui_support.hpp"
#include "tlscope/views/database.hpp"

using gui_test::Dump;
using gui_test::have_display;
using gui_test::view;

TEST_CASE("findings panel of desync names rank 2 and the op it issued") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("desync");
  auto logs = gui_test::sample_logs(dir, "desync");
  REQUIRE_FALSE(logs.empty());
  Dump d = view({logs}, "findings", "", dir, "findings_desync");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.panel == "findings");
  CHECK(d.has("group", "Collective desyncs"));
  const gui_test::Item* f = d.find("finding", "desync");
  if (!f) f = d.find("finding", "rank 2 issued");
  REQUIRE(f != nullptr);
  CHECK(f->text.find("rank 2 issued all_gather") != std::string::npos);
  CHECK(f->text.find("[rank 2]") != std::string::npos);

  // finding:1 selected: the details pane says where it happened, with the ranks on both sides.
  Dump sel = view({logs}, "findings", "finding:1", dir);
  INFO(sel.error);
  REQUIRE(sel.ok);
  CHECK(sel.has("details", "Finding 1: desync (error)"));
  CHECK(sel.has("details", "on rank 2"));
  CHECK(sel.has("details", "against ranks 0-1, 3 (3 of 4)"));
  CHECK(sel.has("details", "collective: group"));
}

TEST_CASE("findings panel of hang marks the missing rank") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("hang");
  auto logs = gui_test::sample_logs(dir, "hang");
  REQUIRE_FALSE(logs.empty());
  // Which rank hangs is the scenario's: read it from the database the viewer built.
  Dump d = view({logs}, "findings", "", dir, "findings_hang");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("group", "Missing collectives (hangs)"));
  const gui_test::Item* f = d.find("finding", "never");
  REQUIRE(f != nullptr);
  CHECK(f->text.find("[rank ") != std::string::npos);
  CHECK(d.has("nav", "Summary  ("));
}

TEST_CASE("a compile of graph-breaks shows its graphs, guards and generated code") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("graph_breaks");
  auto logs = gui_test::sample_logs(dir, "graph-breaks");
  REQUIRE_FALSE(logs.empty());
  Dump d = view({logs}, "compile", "compile:0/0", dir, "compile_graph_breaks");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("heading", "Compile 0/0"));
  // The duration in the timelines' one format: three significant digits and a unit.
  const gui_test::Item* took = d.find("label", "compile time: ");
  REQUIRE(took != nullptr);
  INFO(took->text);
  CHECK(std::regex_match(took->text,
                         std::regex("compile time: ([0-9]\\.[0-9]{2}|[0-9]{2}\\.[0-9]|[0-9]{3}) "
                                    "(ns|\xC2\xB5s|ms|s)")));
  CHECK(d.has("section", "Graphs"));
  CHECK(d.has("section", "Guards"));
  CHECK(d.has("section", "Generated code"));
  CHECK(d.has("payload", "dynamo_output_graph"));
  CHECK(d.has("payload", "inductor_output_code"));
  // Line-numbered code: the FX graph's class line is line 1.
  CHECK(d.has("code", "1 class GraphModule"));
  CHECK(d.has("label", "graph breaks"));

  Dump tree = view({logs}, "compile-tree", "", dir, "compile_tree_graph_breaks");
  INFO(tree.error);
  REQUIRE(tree.ok);
  CHECK(tree.has("frame", "forward"));
  CHECK(tree.has("compile", "[0/0]"));
  CHECK(tree.has("compile", "graph break"));

  Dump breaks = view({logs}, "graph-breaks", "", dir, "graph_breaks");
  INFO(breaks.error);
  REQUIRE(breaks.ok);
  CHECK(breaks.has("header", "count"));
  CHECK(breaks.count("cell") > 0);

  // A compile the log does not have is refused, naming it.
  tlscope::gui::ViewerResult r;
  Dump missing = view({logs}, "compile", "compile:99/0", dir, "", &r);
  CHECK_FALSE(r.ok);
  CHECK(r.input_error);
  CHECK(r.error == "--select compile:99/0: no compile 99/0 in this database");
}

TEST_CASE("the mesh-2d tensors panel shows the logged values with their owners") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("mesh_2d");
  auto logs = gui_test::sample_logs(dir, "mesh-2d");
  REQUIRE_FALSE(logs.empty());
  Dump d = view({logs}, "tensors", "", dir, "tensors_mesh_2d");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("source", "values of "));
  CHECK(d.has("source", "sharded"));
  CHECK(d.has("label", "mesh 2x2"));
  CHECK(d.has("owner", "mesh rank 0"));
  CHECK(d.has("owner", "mesh rank 3"));
  // Cells carry their value and owners ("[0,0] = 0 on r0"): values, not flat indexes alone.
  size_t owned = 0;
  for (const auto& i : d.items)
    owned += i.kind == "cell" && i.text.find(" on r") != std::string::npos;
  CHECK(owned > 4);
}

TEST_CASE("the SQL console returns the count the database holds, and refuses writes in place") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("sql");
  auto logs = gui_test::sample_logs(dir, "mlp");
  REQUIRE_FALSE(logs.empty());
  Dump d = view({logs}, "sql", "sql:SELECT count(*) AS n FROM events", dir, "sql");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("header", "n"));
  // The viewer's cache database, read independently.
  std::string db_path;
  for (const auto& e : gui_test::fs::directory_iterator(dir / "cache" / "tlscope"))
    if (e.path().extension() == ".db") db_path = e.path().string();
  REQUIRE_FALSE(db_path.empty());
  tlscope::views::Database db(db_path);
  const int64_t events = db.scalar("SELECT count(*) FROM events");
  CHECK(events > 0);
  CHECK(d.has("cell", std::to_string(events)));

  Dump refused = view({db_path}, "sql", "sql:DELETE FROM events", dir);
  INFO(refused.error);
  REQUIRE(refused.ok);
  CHECK(refused.has("error", "read-only"));
  CHECK(db.scalar("SELECT count(*) FROM events") == events);
}

TEST_CASE("a real multi-rank log's findings panel lists its rank divergences") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("multi_rank");
  Dump d = view({gui_test::kLogs + "/multi_rank_logs"}, "findings", "", dir, "findings_multi_rank");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("group", "Rank divergence"));
  CHECK(d.has("label", "4 ranks"));
  // One fact on several ranks is one line: the navigation counts the lines the panel lists, and
  // the panel says how many findings they hold (more rows than lines on this log).
  const size_t lines = d.count("finding");
  REQUIRE(lines > 0);
  CHECK(d.has("nav", "Summary  (" + std::to_string(lines) + ")"));
  CHECK(d.has("label", " findings in " + std::to_string(lines) + " lines"));
  // The viewer's one timeline holds the compile phases too (this log has no collectives).
  CHECK(d.has("nav", "Timeline  ("));
  CHECK_FALSE(d.has("nav", "Collectives"));
  // Tables keep the view model's order until a header is clicked: most frequent recompile first.
  Dump rec = view({gui_test::kLogs + "/multi_rank_logs"}, "recompiles", "", dir);
  INFO(rec.error);
  REQUIRE(rec.ok);
  std::vector<std::string> headers, cells;
  for (const auto& i : rec.items) {
    if (i.kind == "header") headers.push_back(i.text);
    if (i.kind == "cell") cells.push_back(i.text);
  }
  REQUIRE_FALSE(headers.empty());
  CHECK(headers[0] == "count");
  REQUIRE(cells.size() >= 2 * headers.size());
  std::vector<long> counts;
  for (size_t c = 0; c < cells.size(); c += headers.size()) counts.push_back(std::stol(cells[c]));
  INFO(rec.all());
  CHECK(std::is_sorted(counts.rbegin(), counts.rend()));
  CHECK(counts.front() > counts.back());  // this log's recompiles are not all equally frequent
  Dump div = view({gui_test::kLogs + "/multi_rank_logs"}, "divergence", "", dir, "divergence");
  INFO(div.error);
  REQUIRE(div.ok);
  CHECK(div.has("header", "rank 3"));
  CHECK(div.has("heading", "divergences"));
}

TEST_CASE("the errors panel lists a corrupted log's bad lines with file and line") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("errors");
  Dump d = view({gui_test::kLogs + "/simple_corrupted_json.log"}, "errors", "", dir, "errors");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("header", "file:line"));
  CHECK(d.has("cell", "simple_corrupted_json.log:"));
  CHECK_FALSE(d.has("label", "No ingest errors"));
}

TEST_CASE("panels open by name at the smallest supported window size") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("every_panel");
  auto logs = gui_test::sample_logs(dir, "graph-breaks");
  REQUIRE_FALSE(logs.empty());
  // The panels no other test shows, and two dense ones; with the tests above every panel of this
  // branch leaves a screenshot (the timeline's own tests cover the timeline and find-zone). A
  // window costs ~0.8 s, so the list stays short.
  for (const char* panel : {"findings", "compile", "recompiles", "failures", "cache"}) {
    INFO(panel);
    tlscope::gui::ViewerOptions opts;
    opts.test = true;  // no remembered layout or recent files
    opts.inputs = {logs};
    opts.panel = panel;
    opts.width = 1024;
    opts.height = 640;
    opts.dump_ui_path = (dir / (std::string(panel) + ".json")).string();
    opts.screenshot_path = gui_test::artifact(std::string("panel_") + panel + ".png");
    auto r = tlscope::gui::run_viewer(opts);
    INFO(r.error);
    REQUIRE(r.ok);
    CHECK(r.stats.framebuffer_width == 1024);
    CHECK(r.stats.framebuffer_height == 640);
    Dump d = gui_test::read_dump(opts.dump_ui_path);
    REQUIRE(d.ok);
    CHECK(d.panel == panel);
    // The navigation list shows every panel, each with its label from views::kScreens.
    CHECK(d.has("nav", "Summary"));
    CHECK(d.has("nav", "Ingest errors"));
    CHECK(d.has("tab", ""));
  }
  tlscope::gui::ViewerResult r;
  view({logs}, "no-such-panel", "", dir, "", &r);
  CHECK_FALSE(r.ok);
  CHECK(r.input_error);
  CHECK(r.error == "--panel no-such-panel: no such panel");
}
