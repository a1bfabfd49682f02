// The viewer's compare mode on the sample runtime's pairs, in a real window (Xvfb): the dump
// holds both runs' compile rows aligned, the difference marks, and a differences list equal to
// what `tlscope compare --format json` reports; a selection in one run selects its match in the
// other; both timelines share one axis.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gui_support.hpp"

using gui_test::Dump;
using gui_test::have_display;

namespace {

const std::string kTlscope = std::string(TLSCOPE_BINARY_DIR) + "/cli/tlscope";

struct Pair {
  std::string a, b;
};

// The sample pair's two runs (dir/logs/a and dir/logs/b).
Pair sample_pair(const gui_test::fs::path& dir, const std::string& scenario) {
  const std::string out = (dir / "logs").string();
  const std::string cmd =
      "'" + gui_test::kSample + "' " + scenario + " --out '" + out + "' >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return {out + "/a", out + "/b"};
}

// `tlscope compare --format json A B`, parsed: its differences' texts, in order, and how many
// compiles each run attempted.
struct CompareJson {
  std::vector<std::string> texts, kinds;
  int64_t attempted_a = -1, attempted_b = -1;
};

CompareJson compare_json(const gui_test::fs::path& dir, const Pair& p) {
  const std::string out = (dir / "compare.json").string();
  const std::string cmd = "'" + kTlscope + "' compare --format json '" + p.a + "' '" + p.b +
                          "' >'" + out + "' 2>/dev/null";
  REQUIRE(std::system(cmd.c_str()) == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.load(out);
  CompareJson c;
  for (simdjson::dom::element d : doc["differences"].get_array()) {
    c.texts.emplace_back(std::string_view(d["text"]));
    c.kinds.emplace_back(std::string_view(d["kind"]));
  }
  c.attempted_a = int64_t(doc["a"]["compiles"]["attempted"]);
  c.attempted_b = int64_t(doc["b"]["compiles"]["attempted"]);
  return c;
}

Dump view_compare(const Pair& p, const std::string& select, const gui_test::fs::path& dir,
                  const std::string& shot = "") {
  tlscope::gui::ViewerOptions opts;
  opts.test = true;
  opts.compare = true;
  opts.inputs = {p.a, p.b};
  opts.select = select;
  opts.dump_ui_path = (dir / "dump_compare.json").string();
  if (!shot.empty()) opts.screenshot_path = gui_test::artifact(shot + ".png");
  gui_test::fs::remove(opts.dump_ui_path);
  tlscope::gui::ViewerResult r = tlscope::gui::run_viewer(opts);
  if (!r.ok) {
    Dump d;
    d.error = r.error;
    return d;
  }
  return gui_test::read_dump(opts.dump_ui_path);
}

std::vector<std::string> texts_of(const Dump& d, const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& i : d.items)
    if (i.kind == kind) out.push_back(i.text);
  return out;
}

// The items of `kind` drawn under the heading item `from` and before the next `to` (or the end).
std::vector<gui_test::Item> items_between(const Dump& d, const std::string& kind,
                                          const std::string& from, const std::string& to) {
  std::vector<gui_test::Item> out;
  bool in = false;
  for (const auto& i : d.items) {
    if (i.kind == "timeline") in = i.text.find(from) != std::string::npos;
    if (!to.empty() && i.kind == "timeline" && i.text.find(to) != std::string::npos) in = false;
    if (in && i.kind == kind) out.push_back(i);
  }
  return out;
}

}  // namespace

TEST_CASE("compare mode: a recompile B made is its own row, marked, listed as compare lists it") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compare_shape_recompile");
  const Pair p = sample_pair(dir, "pair-shape-recompile");
  const CompareJson expected = compare_json(dir, p);
  REQUIRE_FALSE(expected.texts.empty());

  Dump d = view_compare(p, "", dir, "compare_shape_recompile");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.panel == "compare");
  // The panel's rows are the command's differences, in its order.
  CHECK(texts_of(d, "difference") == expected.texts);
  // Every compile of each run has its row, on its side.
  CHECK(static_cast<int64_t>(d.count("compile-a")) == expected.attempted_a);
  CHECK(static_cast<int64_t>(d.count("compile-b")) == expected.attempted_b);
  CHECK(d.count("compile-b") > d.count("compile-a"));
  // B's extra compile stands alone, marked with the kind of difference it is.
  CHECK(d.has("compile-status", "only_b"));
  CHECK(d.has("marks-of", "recompile_added"));
  CHECK(d.has("mark", "+recompile"));
  CHECK(d.has("frame-status", "matched"));
  CHECK(d.has("run", "A: "));
  CHECK(d.has("run", "B: "));

  // Clicking (selecting) that difference selects B's compile and no compile of A.
  size_t k = 0;
  while (k < expected.kinds.size() && expected.kinds[k] != "recompile_added") ++k;
  REQUIRE(k < expected.kinds.size());
  Dump sel = view_compare(p, "difference:" + std::to_string(k + 1), dir);
  INFO(sel.error);
  REQUIRE(sel.ok);
  CHECK(sel.has("details", expected.texts[k]));
  CHECK(sel.count("selected-b") == 1);
  CHECK(sel.count("selected-a") == 0);
  CHECK(sel.has("details", "B: compile "));
  // B's timeline is put on that compile's phases; A's has no such compile.
  CHECK(sel.has("selected-zone", "B: "));
  CHECK_FALSE(sel.has("selected-zone", "A: "));
  // Selecting the compile itself (from B's side) lists what differs about it in the details.
  const auto picked = texts_of(sel, "selected-b");
  REQUIRE(picked.size() == 1);
  Dump row = view_compare(p, "compile:b:" + picked[0], dir);
  REQUIRE(row.ok);
  CHECK(row.has("details", expected.texts[k]));
  CHECK(texts_of(row, "selected-b") == picked);

  // A difference that is not there is refused, naming how many there are.
  Dump none = view_compare(p, "difference:999", dir);
  CHECK_FALSE(none.ok);
  CHECK(none.error.find("no difference 999") != std::string::npos);
}

TEST_CASE("compare mode: runs that differ only in ids show no difference, compiles matched") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compare_ids_shifted");
  const Pair p = sample_pair(dir, "pair-ids-shifted");
  const CompareJson expected = compare_json(dir, p);
  CHECK(expected.texts.empty());

  // Selecting A's first compile selects B's first, whose id differs (B's frame ids shifted).
  Dump d = view_compare(p, "compile:0/0", dir, "compare_ids_shifted");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.count("difference") == 0);
  CHECK(d.count("mark") == 0);
  CHECK(d.count("compile-status") == 0);  // no row is one run's alone
  CHECK(d.count("compile-a") == d.count("compile-b"));
  CHECK(d.count("compile-a") == static_cast<size_t>(expected.attempted_a));
  const auto a = texts_of(d, "selected-a"), b = texts_of(d, "selected-b");
  REQUIRE(a.size() == 1);
  REQUIRE(b.size() == 1);
  CHECK(a[0] == "0/0");
  CHECK(b[0] != a[0]);
  CHECK(d.has("details", "B: compile " + b[0]));
  // Both timelines are put on the compile, on the same phase in each run.
  const auto zones = texts_of(d, "selected-zone");
  REQUIRE(zones.size() == 2);
  CHECK(zones[0].substr(0, 3) == "A: ");
  CHECK(zones[1].substr(0, 3) == "B: ");
  CHECK(zones[0].substr(3) == zones[1].substr(3));
  // B's compile picked from B's side selects A's.
  Dump from_b = view_compare(p, "compile:b:" + b[0], dir);
  REQUIRE(from_b.ok);
  CHECK(texts_of(from_b, "selected-a") == a);
}

// The compile rows a dump shows: each draws two cells, its compile of A and of B or "-".
size_t compile_rows(const Dump& d) {
  return (d.count("compile-a") + d.count("compile-b") + d.count("absent")) / 2;
}

std::vector<std::string> with(const std::vector<std::string>& texts, const std::string& needle) {
  std::vector<std::string> out;
  for (const std::string& t : texts)
    if (t.find(needle) != std::string::npos) out.push_back(t);
  return out;
}

TEST_CASE("compare mode: a row carries a marker per kind of difference the model puts on it") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compare_row_marks");
  const Pair p = sample_pair(dir, "pair-graph-break");
  const CompareJson expected = compare_json(dir, p);
  size_t k = 0;
  while (k < expected.kinds.size() && expected.kinds[k] != "graph_break_added") ++k;
  REQUIRE(k < expected.kinds.size());

  Dump d = view_compare(p, "", dir, "compare_row_marks");
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  // B's added break is on the row of the compile whose trace broke (pair_forward's compile #0),
  // tagged, with the break's sentence as the tag's tooltip.
  const auto rows = texts_of(d, "marks-of");
  const auto breaking = with(rows, "graph_break_added");
  REQUIRE(breaking.size() == 1);
  CHECK(breaking[0].find("pair_forward") != std::string::npos);
  CHECK(breaking[0].find(" compile #0 [A ") != std::string::npos);
  CHECK(d.has("mark", "+break"));
  CHECK(d.has("mark-tip", expected.texts[k]));
  // The frame only B has is marked on its frame's row.
  CHECK(with(rows, "frame_added").size() == 1);
  // Every difference the model reports is marked somewhere: on a row or in the run's strip.
  for (const std::string& text : expected.texts) {
    INFO(text);
    CHECK((d.has("mark-tip", text) || d.has("run-mark-tip", text)));
  }
  CHECK(d.has("toggle", "only rows with differences: off"));

  // The filter keeps the rows with a difference (and their frames): B's resume frame's compile
  // has none of its own (its difference is the frame's), so it goes.
  Dump only = view_compare(p, "only-differences", dir);
  INFO(only.error << "\n" << only.all());
  REQUIRE(only.ok);
  CHECK(only.has("toggle", "only rows with differences: on"));
  CHECK(compile_rows(only) < compile_rows(d));
  CHECK(compile_rows(only) == with(texts_of(only, "marks-of"), " compile #").size());
  CHECK(with(texts_of(only, "marks-of"), "graph_break_added").size() == 1);
}

TEST_CASE("compare mode: identical runs mark no row and no run-wide difference") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compare_identical_marks");
  const Pair p = sample_pair(dir, "pair-identical");
  CHECK(compare_json(dir, p).texts.empty());
  Dump d = view_compare(p, "", dir);
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(compile_rows(d) > 0);
  CHECK(d.count("mark") == 0);
  CHECK(d.count("marks-of") == 0);
  CHECK(d.count("run-mark") == 0);
  // With the filter on, no row is left.
  Dump only = view_compare(p, "only-differences", dir);
  REQUIRE(only.ok);
  CHECK(compile_rows(only) == 0);
  CHECK(only.count("frame") == 0);
}

TEST_CASE("compare mode: a desync only B has is marked in the run-wide strip") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compare_desync_marks");
  const Pair p = sample_pair(dir, "pair-desync");
  const CompareJson expected = compare_json(dir, p);
  size_t k = 0;
  while (k < expected.kinds.size() && expected.kinds[k] != "collective_finding_added") ++k;
  REQUIRE(k < expected.kinds.size());
  Dump d = view_compare(p, "", dir);
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  CHECK(d.has("run-marks-of", "collective_finding_added"));
  CHECK(d.has("run-mark", "+desync/hang"));
  CHECK(d.has("run-mark-tip", expected.texts[k]));
  CHECK_FALSE(d.has("marks-of", "collective_finding_added"));
}

TEST_CASE("compare mode: the two timelines are stacked on one time axis") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("compare_timelines");
  const Pair p = sample_pair(dir, "pair-graph-break");
  Dump d = view_compare(p, "", dir);
  INFO(d.error << "\n" << d.all());
  REQUIRE(d.ok);
  const auto lanes_a = items_between(d, "lane", "Timeline A", "Timeline B");
  const auto lanes_b = items_between(d, "lane", "Timeline B", "");
  CHECK_FALSE(lanes_a.empty());
  CHECK_FALSE(lanes_b.empty());
  // One axis: the same ruler labels at the same x, the same visible span, B's below A's.
  const auto ruler_a = items_between(d, "ruler", "Timeline A", "Timeline B");
  const auto ruler_b = items_between(d, "ruler", "Timeline B", "");
  REQUIRE_FALSE(ruler_a.empty());
  REQUIRE(ruler_a.size() == ruler_b.size());
  for (size_t i = 0; i < ruler_a.size(); ++i) {
    CHECK(ruler_a[i].text == ruler_b[i].text);
    CHECK(ruler_a[i].x == Approx(ruler_b[i].x));
    CHECK(ruler_a[i].y < ruler_b[i].y);
  }
  const auto span_a = items_between(d, "label", "Timeline A", "Timeline B");
  const auto span_b = items_between(d, "label", "Timeline B", "");
  REQUIRE_FALSE(span_a.empty());
  REQUIRE_FALSE(span_b.empty());
  CHECK(span_a.front().text == span_b.front().text);
}

TEST_CASE("compare mode refuses one input, naming what it needs") {
  tlscope::gui::ViewerOptions opts;
  opts.test = true;
  opts.compare = true;
  opts.inputs = {"/nonexistent/a.log"};
  tlscope::gui::ViewerResult r = tlscope::gui::run_viewer(opts);
  CHECK_FALSE(r.ok);
  CHECK(r.input_error);
  CHECK(r.error.find("two runs") != std::string::npos);
}
