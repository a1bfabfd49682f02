// A very long unbroken log string (a 200,000-character co_name) must not make pages about
// 2,000,000 px wide (issue 12, 16): in headless Chromium every page stays near the frame's width.
// And html_clipped, the shortened form with the whole text a click away.
#include <catch2/catch.hpp>

#include "exporters/browser.hpp"
#include "tlscope/exporters/html.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

// Per page of the harness JSON, its "width" value.
std::vector<std::pair<std::string, long>> page_widths(const std::string& json) {
  std::vector<std::pair<std::string, long>> out;
  size_t pos = 0;
  while ((pos = json.find("{\"page\":\"", pos)) != std::string::npos) {
    size_t name_end = json.find('"', pos + 9);
    std::string page = json.substr(pos + 9, name_end - pos - 9);
    size_t w = json.find("\"width\":", name_end);
    out.emplace_back(page, w == std::string::npos ? -1 : std::atol(json.c_str() + w + 8));
    pos = name_end;
  }
  return out;
}

}  // namespace

TEST_CASE("a 200000-character co_name wraps: no report page grows wider than the window") {
  REQUIRE(chromium_path() != nullptr);
  fs::path root = fresh_scratch("report_scratch", "long_names");
  const std::string name(200000, 'W');
  auto result = report_of_log(root, comp_failure_log_with_long_names(name));
  REQUIRE(result.ok);

  // Every page that shows the name: the index, compiles.html and the compile pages among them.
  std::vector<std::string> pages;
  for (const auto& p : html_files(root / "site"))
    if (slurp(p).find(name.substr(0, 1000)) != std::string::npos)
      pages.push_back(fs::relative(p, root).string());
  std::sort(pages.begin(), pages.end());
  CHECK(std::count(pages.begin(), pages.end(), "site/index.html") == 1);
  CHECK(std::count(pages.begin(), pages.end(), "site/compiles.html") == 1);
  REQUIRE(pages.size() >= 3);
  PageCheck check = check_pages(root, pages, "wide");
  auto widths = page_widths(check.json);
  REQUIRE(widths.size() == pages.size());
  for (const auto& [page, width] : widths) {
    INFO(page << " is " << width << " px wide in a 1280-px frame");
    CHECK(width > 0);
    CHECK(width <= 1300);
  }
}

TEST_CASE("html_clipped keeps short text and folds long text into a details element") {
  using tlscope::exporters::html_clipped;
  CHECK(html_clipped("a<b", 10) == "a&lt;b");
  CHECK(html_clipped(std::string(10, 'x'), 10) == std::string(10, 'x'));
  std::string long_text = std::string(12, 'x') + "<";
  std::string html = html_clipped(long_text, 10);
  CHECK(html.rfind("<details class=\"long-text\"><summary>xxxxxxxxxx<span class=\"clip-tail\">",
                   0) == 0);
  CHECK(html.find("(13 characters: show all)") != std::string::npos);
  CHECK(html.find("</summary>xx&lt;</details>") != std::string::npos);
  // The cut never splits a UTF-8 sequence: three two-byte letters, cut after two.
  std::string accents = "\xc3\xa9\xc3\xa9\xc3\xa9";
  CHECK(html_clipped(accents, 2).find("<summary>\xc3\xa9\xc3\xa9<span") != std::string::npos);
}
