// The collective page of a 1,024-rank desync: rank 2 on a lane of its own beside one folded lane
// for the other 1,023 ranks, a <details> toggle that opens the group, pages of a few hundred kB,
// and in headless Chromium the page draws two rows until the group is opened, then 1,024.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/many_rank_logs.hpp"
#include "exporters/browser.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

constexpr int kRanks = 1024, kCollectives = 8, kDesyncRank = 2, kDesyncSeq = 5;

// Logs -> database -> report, as `tlscope report DIR` does; returns the site directory.
fs::path many_rank_report(const fs::path& root) {
  write_many_rank_desync_logs(root / "logs", kRanks, kCollectives, kDesyncRank, kDesyncSeq);
  const std::string db = (root / "job.db").string();
  fs::remove(db);
  auto ingested = tlscope::model::ingest(db, {(root / "logs").string()});
  for (const auto& p : ingested.problems) INFO(p);
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &raw) == SQLITE_OK);
  tlscope::model::analysis::analyze(raw);
  sqlite3_close(raw);
  tlscope::exporters::ReportOptions o;
  o.db_path = db;
  o.out_dir = (root / "site").string();
  fs::remove_all(o.out_dir);
  auto r = tlscope::exporters::write_report(o);
  INFO(r.error);
  REQUIRE(r.ok);
  return root / "site";
}

}  // namespace

TEST_CASE("report: a 1024-rank desync folds the alike ranks beside rank 2's own lane") {
  const fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "report-1024-ranks";
  fs::create_directories(root);
  const fs::path site = many_rank_report(root);
  const std::string page = slurp(site / "collectives.html");
  const std::string js = slurp(site / "data" / "collectives.js");

  // The analysis found the desync on rank 2: its finding is the one problem row.
  CHECK(attr_of(page, "collectives-summary", "data-records") ==
        std::to_string(kRanks * kCollectives));
  CHECK(attr_of(page, "collectives-summary", "data-desyncs") == "1");
  // One folded group of the 1,023 alike ranks, opened from its <details> toggle.
  CHECK(attr_of(page, "lane-groups", "data-groups") == "2");
  CHECK(attr_of(page, "lane-groups", "data-folded") == "1");
  CHECK(page.find("<details class=\"lane-group\" data-group=\"0\"><summary>ranks 0-1, 3-1023 "
                  "(1,023)</summary>") != std::string::npos);
  // The data file carries the groups timeline.js folds by: rank 2 alone, marked as the desync.
  CHECK(js.find("\"groups\": [[\"ranks 0-1, 3-1023 (1,023)\",\"\",[0,1,3,4,") != std::string::npos);
  CHECK(js.find("[\"rank 2\",\"desync\",[2]]") != std::string::npos);
  CHECK(count_of(js, "\n[") >= static_cast<size_t>(kRanks * kCollectives));  // every bar, to open

  // A few MB at most for everything the collective pages load.
  uintmax_t bytes = fs::file_size(site / "data" / "collectives.js");
  for (const auto& p : fs::directory_iterator(site))
    if (p.path().filename().string().rfind("collective", 0) == 0) bytes += fs::file_size(p.path());
  std::printf("1,024-rank collective pages: %.2f MB\n", static_cast<double>(bytes) / 1e6);
  CHECK(bytes < 3'000'000);

  // In headless Chromium: two rows drawn folded (the group's first rank and rank 2), all 1,024
  // once the group's toggle opens.
  REQUIRE(chromium_path() != nullptr);
  std::ofstream(root / "open-group.js") << R"JS(
var f = document.createElement("iframe");
f.width = 1280; f.height = 900;
f.onload = function () { setTimeout(function () {
  var d = f.contentDocument, r = {};
  var host = d.getElementById("timeline");
  r.folded = host.getAttribute("data-rows");
  r.drawn = host.getAttribute("data-drawn-bars");
  r.bars = host.getAttribute("data-bars");
  var det = d.querySelector("#lane-groups details[data-group='0']");
  det.open = true;
  setTimeout(function () {
    r.opened = host.getAttribute("data-rows");
    r.drawnOpen = host.getAttribute("data-drawn-bars");
    document.getElementById("out").textContent = JSON.stringify(r);
  }, 50);
}, 30); };
f.src = "site/collectives.html";
document.body.appendChild(f);
)JS";
  std::ofstream(root / "open-group.html")
      << "<!DOCTYPE html><html><body><pre id=\"out\"></pre><script src=\"open-group.js\">"
         "</script></body></html>\n";
  const std::string cmd = chromium_command(root / "profile") +
                          " --allow-file-access-from-files --virtual-time-budget=60000 "
                          "--dump-dom file://" +
                          (root / "open-group.html").string() + " > " +
                          (root / "open-group.dom").string() + " 2>/dev/null";
  std::system(cmd.c_str());
  fs::remove_all(root / "profile");
  const std::string dom = slurp(root / "open-group.dom");
  INFO(dom.substr(0, 2000));
  CHECK(dom.find("\"folded\":\"2\"") != std::string::npos);
  // Folded, the rows show the first rank's 8 collectives and rank 2's 8.
  CHECK(dom.find("\"drawn\":\"16\"") != std::string::npos);
  CHECK(dom.find("\"bars\":\"" + std::to_string(kRanks * kCollectives) + "\"") !=
        std::string::npos);
  CHECK(dom.find("\"opened\":\"1024\"") != std::string::npos);
  // Open, only the rows in the scrolled window are drawn: more than folded, far fewer than all.
  const size_t open_at = dom.find("\"drawnOpen\":\"");
  REQUIRE(open_at != std::string::npos);
  const int drawn_open = std::atoi(dom.c_str() + open_at + 13);
  CHECK(drawn_open > 16);
  CHECK(drawn_open < kRanks * kCollectives / 4);
}
