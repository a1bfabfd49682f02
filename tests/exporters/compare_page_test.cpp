// The compare page (`tlscope compare -o DIR`) draws the two runs side by side from the one
// views::Comparison: the compile trees with every aligned frame and its only-A / only-B marks,
// both timelines on one axis from 0, the graph and guard differences under their compile, log
// text escaped; and it loads in headless Chromium without a script or a broken element.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <cstdlib>

#include "exporters/browser.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/compare_report.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/compare.hpp"
#include "tlscope/views/database.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;
namespace views = tlscope::views;

namespace {

// `inputs` ingested and analysed into `db`, as every reading command leaves a database.
void ingest_analysed(const std::string& db, const std::vector<std::string>& inputs) {
  fs::remove(db);
  tlscope::model::ingest(db, inputs);
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
  REQUIRE(tlscope::model::analysis::analyze(handle).ok);
  sqlite3_close(handle);
}

// The sample pair `scenario` (tlscope-sample) compared and written as a page into root/site.
views::Comparison compare_page(const fs::path& root, const std::string& scenario) {
  fs::remove_all(root);
  fs::create_directories(root);
  const fs::path sample = fs::path(TLSCOPE_BINARY_DIR) / "samples/runtime/tlscope-sample";
  const std::string cmd =
      sample.string() + " " + scenario + " --out " + (root / "logs").string() + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  ingest_analysed((root / "a.db").string(), {(root / "logs" / "a").string()});
  ingest_analysed((root / "b.db").string(), {(root / "logs" / "b").string()});
  views::Database a((root / "a.db").string()), b((root / "b.db").string());
  auto c = views::compare_runs(a, b);
  INFO(c.error);
  REQUIRE(c.ok());
  const std::string error =
      tlscope::exporters::write_compare_report(*c, "a", "b", (root / "site").string());
  INFO(error);
  REQUIRE(error.empty());
  return c.value;
}

}  // namespace

TEST_CASE("compare page: compile trees side by side, only-A and only-B marked") {
  const fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "compare-page-break";
  const views::Comparison c = compare_page(root, "pair-graph-break");
  const std::string page = slurp(root / "site" / "index.html");
  // B breaks the graph: its resume frame is in B only, pair_forward is in both.
  REQUIRE(c.frames.size() == 2);
  CHECK(attr_of(page, "compare-trees", "data-frames") == "2");
  CHECK(attr_of(page, "compare-trees", "data-only-a") == "0");
  CHECK(attr_of(page, "compare-trees", "data-only-b") == "1");
  for (size_t i = 0; i < c.frames.size(); ++i) {
    INFO(c.frames[i].function);
    CHECK(page.find("<tr class=\"tree-frame " +
                    std::string(views::frame_status_name(c.frames[i].status)) + "\" data-frame=\"" +
                    std::to_string(i) + "\">") != std::string::npos);
    CHECK(page.find("<span class=\"fn\">" + c.frames[i].function + "</span>") != std::string::npos);
  }
  CHECK(count_of(page, "<span class=\"only-mark\">only in B</span>") >= 1);
  CHECK(count_of(page, "<span class=\"only-mark\">only in A</span>") == 0);
  // One row per compile of the aligned lists.
  CHECK(count_of(page, "<tr class=\"tree-compile ") == c.compiles.size());
  // Compile #0 of pair_forward lost torch.exp in B: its graph difference is under it.
  const size_t tree = page.find("id=\"compare-trees\"");
  const size_t exp = page.find("torch.exp", tree);
  REQUIRE(exp != std::string::npos);
  CHECK(page.rfind("<tr class=\"tree-compile matched\" data-compile=\"0\">", exp) > tree);

  // Both timelines, each with its compiles as bars on one axis starting at 0.
  size_t bars_a = 0, bars_b = 0;
  for (const views::CompilePair& p : c.compiles) {
    bars_a += p.start_a_us >= 0;
    bars_b += p.start_b_us >= 0;
  }
  CHECK(bars_a >= 1);
  CHECK(bars_b == 2);  // pair_forward's compile and the resume frame's
  CHECK(attr_of(page, "timeline-a", "data-bars") == std::to_string(bars_a));
  CHECK(attr_of(page, "timeline-b", "data-bars") == std::to_string(bars_b));
  CHECK(attr_of(page, "timeline-a", "data-ruler").rfind("0 ", 0) == 0);
  CHECK(attr_of(page, "timeline-a", "data-ruler") == attr_of(page, "timeline-b", "data-ruler"));
  CHECK(count_of(page, "<rect class=\"bar ") == bars_a + bars_b);

  // B's added break has no value in A: its A cell says so in words, without an empty code box.
  size_t added = 0;
  for (const views::Difference& d : c.differences) added += !d.a.has_value();
  REQUIRE(added >= 1);
  CHECK(count_of(page, "<span class=\"absent\">(not in A)</span>") == added);
  CHECK(page.find("<pre></pre>") == std::string::npos);
  // The frame table's status column does not wrap ("matched" stays one word).
  CHECK(count_of(page, "<td class=\"status\">") == c.frames.size());
  const std::string css = slurp(root / "site" / "assets" / "report.css");
  CHECK(css.find("td.status, th.status { white-space: nowrap;") != std::string::npos);
}

namespace {

// A comparison whose frame table is squeezed: frames with long unbroken file paths beside the
// status word, and differences with a value in one run only (and one present but empty).
views::Comparison squeezed_comparison() {
  views::Comparison c;
  for (int i = 0; i < 4; ++i) {
    views::FrameMatch& f = c.frames.emplace_back();
    f.function = "forward_" + std::string(40, 'f') + std::to_string(i);
    f.file = "/home/user/" + std::string(160, 'p') + "/model_" + std::to_string(i) + ".py";
    f.status = i == 3 ? views::FrameStatus::only_b : views::FrameStatus::matched;
    f.line_a = f.line_b = 10 + i;
  }
  views::Difference& added = c.differences.emplace_back();
  added.kind = views::DifferenceKind::graph_break_added;
  added.subject = "model_0.py:12";
  added.b = "Tensor.item()";
  views::Difference& removed = c.differences.emplace_back();
  removed.kind = views::DifferenceKind::graph_break_removed;
  removed.subject = "model_1.py:13";
  removed.a = "Tensor.item()";
  views::Difference& empty = c.differences.emplace_back();
  empty.kind = views::DifferenceKind::config_changed;
  empty.subject = "inductor.debug_dir";
  empty.a = "";
  empty.b = "/tmp/x";
  return c;
}

}  // namespace

TEST_CASE("compare page: a value one run lacks is words without a code box") {
  const fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "compare-page-absent";
  fs::remove_all(root);
  REQUIRE(tlscope::exporters::write_compare_report(squeezed_comparison(), "a", "b",
                                                   (root / "site").string())
              .empty());
  const std::string page = slurp(root / "site" / "index.html");
  CHECK(count_of(page, "<span class=\"absent\">(not in A)</span>") == 1);
  CHECK(count_of(page, "<span class=\"absent\">(not in B)</span>") == 1);
  CHECK(count_of(page, "<span class=\"absent\">&mdash;</span>") == 1);  // present, but empty
  CHECK(page.find("<pre></pre>") == std::string::npos);
  // The values present are still in their boxes.
  CHECK(count_of(page, "<pre>Tensor.item()</pre>") == 2);
  CHECK(count_of(page, "<pre>/tmp/x</pre>") == 1);
}

TEST_CASE("compare page: the status word stays on one line beside long file paths (Chromium)") {
  REQUIRE(chromium_path() != nullptr);
  const fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "compare-page-status";
  fs::remove_all(root);
  REQUIRE(tlscope::exporters::write_compare_report(squeezed_comparison(), "a", "b",
                                                   (root / "site").string())
              .empty());
  PageCheck check = check_pages(root, {"site/index.html"}, "harness");
  INFO(check.json);
  REQUIRE(page_count(check.json) == 1);
  CHECK(pages_where_not(check.json, "status_cells", "4").empty());
  CHECK(pages_where_not(check.json, "status_wrapped", "0").empty());
}

TEST_CASE("compare page: log text is escaped in the trees and the timelines") {
  views::Comparison c;
  views::FrameMatch& f = c.frames.emplace_back();
  f.function = "<script>alert(1)</script>";
  f.file = "<img src=x onerror=alert(2)>.py";
  f.status = views::FrameStatus::only_a;
  views::CompilePair& p = c.compiles.emplace_back();
  p.subject = f.function + " compile #0";
  p.compile_a = "0/0";
  p.outcome_a = "<b>BackendCompilerFailed</b>";
  p.status = views::FrameStatus::only_a;
  p.start_a_us = 0;
  p.end_a_us = 2000;
  c.timeline_a_us = 2000;
  const fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "compare-page-hostile";
  fs::remove_all(root);
  REQUIRE(
      tlscope::exporters::write_compare_report(c, "a<i>", "b", (root / "site").string()).empty());
  const std::string page = slurp(root / "site" / "index.html");
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("<img") == std::string::npos);
  CHECK(page.find("<b>Backend") == std::string::npos);
  CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(attr_of(page, "timeline-a", "data-bars") == "1");
  CHECK(attr_of(page, "timeline-b", "data-bars") == "0");
}

TEST_CASE("compare page loads in headless Chromium without errors") {
  REQUIRE(chromium_path() != nullptr);
  const fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "compare-page-browser";
  compare_page(root, "pair-graph-break");
  PageCheck check = check_pages(root, {"site/index.html"}, "harness");
  INFO(check.json);
  REQUIRE(page_count(check.json) == 1);
  CHECK(pages_where_not(check.json, "errors", "0").empty());
  CHECK(pages_where_not(check.json, "pwned", "0").empty());
  CHECK(pages_where_not(check.json, "imgs", "0").empty());
  CHECK(pages_where_not(check.json, "inline", "0").empty());  // no script at all: a static page
  CHECK(check.json.find("\"exception\"") == std::string::npos);
  CHECK(check.stderr_text.find("Uncaught") == std::string::npos);
  // Nothing wider than the frame: the trees and the SVG timelines fit a 1280-px window.
  const auto width = value_after(check.json, "\"width\":");
  REQUIRE(width);
  CHECK(std::stoi(*width) <= 1280);
}
