// Log text of any length in every panel that shows it (issue 27, item 12): a failure reason and a
// guard of 1 MB each made Dear ImGui abort (16-bit vertex indices, exit 134) in the failures,
// findings, graph-break, errors and compile-tree panels. Every text the viewer draws is cut to
// ui::kMaxDrawnBytes in one place (ui_dump.cpp); the whole text stays in the UI dump.
#include <catch2/catch.hpp>

#include "common/scratch_files.hpp"
#include "gui_support.hpp"

using gui_test::Dump;
using gui_test::have_display;
using gui_test::view;

TEST_CASE("a 1 MB failure reason and a 1 MB guard are drawn cut in every panel without abort") {
  if (!have_display()) return;
  auto dir = gui_test::scratch("long_text_panels");
  std::string log = tlscope::test::slurp(std::string(TLSCOPE_FIXTURES) + "/torch_versions.log");
  const std::string long_text = "LONG" + std::string(1 << 20, 'x') + "END";
  // fail_reason: failures, findings, the compile; reason: the symbolic-shape guards; co_name:
  // the compile tree's labels. The first record of each is enough for every panel to draw one
  // (each more made the log 1 MB bigger and the test slower under the sanitizers, nothing more).
  for (const std::string key : {"\"fail_reason\": \"", "\"reason\": \"", "\"co_name\": \""}) {
    const size_t at = log.find(key);
    REQUIRE(at != std::string::npos);
    log.insert(at + key.size(), long_text);
  }
  log += long_text + " is not a record\n";  // an ingest error of 1 MB
  const std::string path = (dir / "long.log").string();
  tlscope::test::spit(path, log);

  Dump failures;
  for (const char* panel : {"findings", "failures", "compile-tree", "graph-breaks", "recompiles",
                            "errors", "compile"}) {
    INFO(panel);
    Dump d = view({path}, panel, std::string(panel) == "compile" ? "compile:0/0" : "", dir);
    INFO(d.error);
    REQUIRE(d.ok);
    CHECK(d.panel == panel);
    if (std::string(panel) == "failures") failures = d;
  }
  // The reason is there (cut like any long cell), not lost.
  bool shown = false;
  for (const auto& item : failures.items) shown |= item.text.rfind("LONGxxxx", 0) == 0;
  CHECK(shown);
}
