// The report in headless Chromium: every page of the hostile two-rank fixture loads without a
// script error and without running log text; the timelines draw the bars the database holds;
// screenshots of the index, a graph-break page, the collective timeline and a tensor view are
// written to <build>/test-artifacts/report-fixture-screenshots.
#include <catch2/catch.hpp>

#include "exporters/browser.hpp"
#include "exporters/report_fixture.hpp"
#include "tlscope/exporters/report.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

TEST_CASE("every report page loads in headless Chromium without script errors") {
  REQUIRE(chromium_path() != nullptr);
  const FixtureReport f = fixture_report("browser");
  const fs::path& root = f.root;
  REQUIRE(f.result.ok);

  std::vector<std::string> pages;
  for (const auto& p : html_files(root / "site")) pages.push_back(fs::relative(p, root).string());
  std::sort(pages.begin(), pages.end());
  PageCheck check = check_pages(root, pages, "harness");
  INFO(check.json);
  REQUIRE(page_count(check.json) == pages.size());
  CHECK(pages_where_not(check.json, "ready", "\"1\"").empty());
  CHECK(pages_where_not(check.json, "errors", "0").empty());
  // The hostile log text never ran and never became elements.
  CHECK(pages_where_not(check.json, "pwned", "0").empty());
  CHECK(pages_where_not(check.json, "imgs", "0").empty());
  CHECK(pages_where_not(check.json, "inline", "0").empty());
  CHECK(check.stderr_text.find("Uncaught") == std::string::npos);
  CHECK(check.stderr_text.find("Refused to") == std::string::npos);  // no CSP violation

  // Timelines drew what the database holds: 6 collective records (3 per rank) linked across the
  // 2 lanes once per sequence number, and 4 compile phases.
  CHECK(check.json.find("{\"page\":\"site/collectives.html\",\"ready\":\"1\",\"errors\":0,"
                        "\"pwned\":0,\"imgs\":0,\"inline\":0,\"bars\":\"6\",\"drawn\":\"6\","
                        "\"links\":\"3\"") != std::string::npos);
  CHECK(check.json.find("\"page\":\"site/compile_timeline.html\",\"ready\":\"1\",\"errors\":0,"
                        "\"pwned\":0,\"imgs\":0,\"inline\":0,\"bars\":\"4\",\"drawn\":\"4\"") !=
        std::string::npos);

  // The time axis starts at the run's start: the padding before the first bar has no label, so
  // none is negative (it read "-578 µs" once), and the first is 0.
  CHECK(check.json.find("\"ruler\":\"-") == std::string::npos);
  CHECK(check.json.find("|-") == std::string::npos);
  CHECK(count_of(check.json, "\"ruler\":\"0 \xC2\xB5s|") == 2);  // both timelines

  fs::path shots = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "report-fixture-screenshots";
  fs::create_directories(shots);
  std::string tensor_page;  // the rank-4 tensor: blocks of blocks
  for (const std::string& p : pages)
    if (slurp(root / p).find("<title>Tensor torch.float32 [2, 3, 4, 5]") != std::string::npos)
      tensor_page = p;
  REQUIRE(!tensor_page.empty());
  std::vector<std::pair<fs::path, fs::path>> wanted = {
      {root / "site/index.html", shots / "index.png"},
      {root / "site/graph_breaks.html", shots / "graph_breaks.png"},
      {root / "site/collectives.html", shots / "collectives.png"},
      {root / tensor_page, shots / "tensor.png"}};
  for (auto& w : wanted) fs::remove(w.second);
  screenshots(wanted, root);
  for (auto& w : wanted) {
    INFO(w.second);
    REQUIRE(fs::exists(w.second));
    CHECK(fs::file_size(w.second) > 10000);  // a real 1280x900 render, not an empty image
  }
}
