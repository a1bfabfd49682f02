// The report's pages are the screens list: every screen with a report page is in every page's
// navigation, in the list's order (vLLM's only for a log with vLLM records), and the report
// writes it.
#include <catch2/catch.hpp>

#include "exporters/report_fixture.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/views/screens.hpp"

using namespace tlscope;
using namespace tlscope::test;
namespace fs = std::filesystem;

TEST_CASE("The report writes one page per screen and links them all in kScreens order") {
  const FixtureReport f = fixture_report("screens");
  INFO(f.result.error);
  REQUIRE(f.result.ok);
  std::string expected_nav = "<nav><span class=\"brand\">tlscope</span>";
  size_t pages = 0;
  for (const views::Screen& s : views::kScreens) {
    if (s.report_page.empty()) continue;
    ++pages;
    std::string file = std::string(s.report_page) + ".html";
    INFO(file);
    CHECK(fs::is_regular_file(fs::path(f.dir) / file));
    if (s.id == views::ScreenId::vllm) continue;  // listed only for logs with vLLM records
    expected_nav += "<a href=\"" + file + "\"";
    if (s.report_page == "ranks") expected_nav += " class=\"active\"";
    expected_nav += ">" + std::string(s.label) + "</a>";
  }
  CHECK(pages >= 10);
  std::string ranks = slurp(fs::path(f.dir) / "ranks.html");
  CHECK(ranks.find(expected_nav + "</nav>") != std::string::npos);
  // Every page family was timed, under its screen's name, the summary last.
  REQUIRE_FALSE(f.result.seconds.empty());
  CHECK(f.result.seconds.back().first == "summary");
}
