// The screen list: names are unique and every panel `tlscope gui --panel` documents is there.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "tlscope/views/screens.hpp"

using namespace tlscope::views;

TEST_CASE("Screens have unique names, report pages and viewer panels") {
  std::set<std::string_view> names, pages, panels;
  for (const Screen& s : kScreens) {
    CHECK(names.insert(s.name).second);
    CHECK(&screen(s.id) == &s);
    if (!s.report_page.empty()) CHECK(pages.insert(s.report_page).second);
    if (!s.viewer_panel.empty()) CHECK(panels.insert(s.viewer_panel).second);
  }
  for (const char* p : {"findings", "compile-tree", "compile", "graph-breaks", "recompiles",
                        "failures", "cache", "divergence", "timeline", "find-zone", "tensors",
                        "sql", "errors", "export", "compile-time", "vllm"}) {
    INFO(p);
    REQUIRE(screen_for_panel(p) != nullptr);
    CHECK(screen_for_panel(p)->viewer_panel == p);
  }
  CHECK(screen_for_panel("no-such-panel") == nullptr);
  CHECK(screen(ScreenId::summary).report_page == "index");
}
