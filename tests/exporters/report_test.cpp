// The HTML report on a hand-built two-rank database: every page is written, the counts on the
// pages match the database, every link resolves, nothing needs the network, and log text is
// escaped. (The browser checks are in browser_test.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>

#include "exporters/report_fixture.hpp"
#include "common/scratch_files.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/views/timeline_kinds.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

TEST_CASE("report writes every page family of a two-rank database") {
  const FixtureReport f = fixture_report("pages");
  INFO(f.result.error);
  REQUIRE(f.result.ok);
  CHECK(f.result.ran_analysis);  // the fixture holds only ingest tables
  for (const char* page : {"index.html", "compiles.html", "graph_breaks.html", "recompiles.html",
                           "failures.html", "cache.html", "ranks.html", "collectives.html",
                           "compile_timeline.html", "tensors.html", "errors.html",
                           "assets/report.css", "assets/report.js", "assets/timeline.js",
                           "data/collectives.js", "data/compile_timeline.js"}) {
    INFO(page);
    CHECK(fs::exists(fs::path(f.dir) / page));
  }
  // One page per compile row of the analysis, named by file and compile id.
  long long compiles = db_count(f.db, "SELECT count(*) FROM compiles");
  CHECK(compiles == 6);  // 3 compiles (0/0, 0/1, 1/0) on each of 2 ranks
  auto compile_dir = fs::directory_iterator(fs::path(f.dir) / "compile");
  auto compile_pages = std::distance(fs::begin(compile_dir), fs::end(compile_dir));
  CHECK(compile_pages == compiles);
  CHECK(fs::exists(fs::path(f.dir) / "compile" / "f2_1-0.html"));
  CHECK(f.result.pages == html_files(f.dir).size());
}

TEST_CASE("report pages show the counts the database holds") {
  const FixtureReport f = fixture_report("counts");
  REQUIRE(f.result.ok);
  std::string gb = slurp(fs::path(f.dir) / "graph_breaks.html");
  CHECK(attr_of(gb, "graph-breaks", "data-occurrences") ==
        std::to_string(db_count(f.db, "SELECT count(*) FROM graph_breaks")));
  // The same break on both ranks is one row with count 2.
  CHECK(attr_of(gb, "graph-breaks", "data-groups") == "1");
  CHECK(count_of(gb, "<tr class=\"group\" data-count=\"2\">") == 1);

  std::string rc = slurp(fs::path(f.dir) / "recompiles.html");
  CHECK(attr_of(rc, "recompiles", "data-occurrences") ==
        std::to_string(db_count(f.db, "SELECT count(*) FROM recompiles")));
  CHECK(db_count(f.db, "SELECT count(*) FROM recompiles") == 2);
  CHECK(rc.find("4 \xE2\x86\x92 8") != std::string::npos);  // the size that changed

  std::string fl = slurp(fs::path(f.dir) / "failures.html");
  CHECK(attr_of(fl, "failures", "data-occurrences") == "1");
  CHECK(fl.find("BackendCompilerFailed") != std::string::npos);

  std::string cache = slurp(fs::path(f.dir) / "cache.html");
  CHECK(attr_of(cache, "cache-totals", "data-hits") == "2");
  CHECK(attr_of(cache, "cache-totals", "data-misses") == "2");

  std::string coll = slurp(fs::path(f.dir) / "collectives.html");
  CHECK(attr_of(coll, "collectives-summary", "data-records") == "6");
  CHECK(attr_of(coll, "collectives-summary", "data-groups") == "3");
  CHECK(attr_of(coll, "collectives-summary", "data-desyncs") ==
        std::to_string(db_count(f.db, "SELECT count(*) FROM findings WHERE kind = 'desync'")));
  CHECK(db_count(f.db, "SELECT count(*) FROM findings WHERE kind = 'desync'") == 1);
  std::string data = slurp(fs::path(f.dir) / "data" / "collectives.js");
  CHECK(count_of(data, "\"desync\"") >= 1);  // the bar of the rank at fault is coloured
  // The page's colours and its problem classes are views' tables (timeline.js has none of its
  // own): every op kind's colour, and the problem kinds by id.
  for (const tlscope::views::KindStyle& k : tlscope::views::kCollectiveKinds) {
    char colour[32];
    std::snprintf(colour, sizeof colour, "\":\"#%06x\"", static_cast<unsigned>(k.rgb));
    INFO(k.id);
    CHECK(data.find("\"" + std::string(k.id) + colour) != std::string::npos);
  }
  CHECK(data.find("\"problems\": [\"desync\",\"hang\",\"straggler\"]") != std::string::npos);

  std::string index = slurp(fs::path(f.dir) / "index.html");
  CHECK(attr_of(index, "findings", "data-count") ==
        std::to_string(db_count(f.db, "SELECT count(*) FROM findings")));
  CHECK(attr_of(index, "card-compiles", "data-value") == "6");
  CHECK(index.find("data-kind=\"compile_failure\"") != std::string::npos);

  std::string tensors = slurp(fs::path(f.dir) / "tensors.html");
  CHECK(attr_of(tensors, "tensor-layouts", "data-tensors") ==
        std::to_string(db_count(f.db, "SELECT count(*) FROM tensors")));
  // [4,8]/[8,1], [8,3]/[1,8], [8,8]/[8,1], [2,3,4,5]/[60,1,15,3]
  CHECK(attr_of(tensors, "tensor-layouts", "data-count") == "4");

  std::string ranks = slurp(fs::path(f.dir) / "ranks.html");
  CHECK(attr_of(ranks, "rank-count", "data-count") == "2");
  CHECK(attr_of(ranks, "rank-divergence", "data-count") ==
        std::to_string(db_count(f.db, "SELECT count(*) FROM rank_divergence")));

  std::string phases = slurp(fs::path(f.dir) / "compile_timeline.html");
  CHECK(attr_of(phases, "phase-count", "data-count") == "4");
}

TEST_CASE("a compile page holds its graph, guards, generated code and tensors") {
  const FixtureReport f = fixture_report("compile");
  REQUIRE(f.result.ok);
  std::string page = slurp(fs::path(f.dir) / "compile" / "f1_0-0.html");
  CHECK(page.find("<h2>Graphs (1)</h2>") != std::string::npos);
  CHECK(page.find("<h2>Guards (1)</h2>") != std::string::npos);
  CHECK(page.find("<h2>Generated code (1)</h2>") != std::string::npos);
  // Highlighted with line numbers: one span per line, keywords and strings marked.
  CHECK(page.find("<span class=\"k\">def</span> <span class=\"f\">call</span>") != std::string::npos);
  CHECK(page.find("<span class=\"s\">&#39;a &quot;quoted&quot; string&#39;</span>") != std::string::npos);
  CHECK(attr_of(page, "compile-tensors", "data-count") == "2");
  // The rank-4 tensor's layout page draws all 120 cells, each with its storage offset: element
  // [1, 2, 3, 4] sits at 1*60 + 2*1 + 3*15 + 4*3 = 119, element [0, 1, 0, 0] at 1.
  for (const auto& p : html_files(fs::path(f.dir) / "tensor")) {
    std::string html = slurp(p);
    if (html.find("<title>Tensor torch.float32 [2, 3, 4, 5]") == std::string::npos) continue;
    CHECK(attr_of(html, "tensor-grid", "data-cells") == "120");
    CHECK(count_of(html, "class=\"cell\"") == 120);
    CHECK(html.find(">119</div>") != std::string::npos);
    CHECK(html.find("dim 0") != std::string::npos);
  }
  std::string failed = slurp(fs::path(f.dir) / "compile" / "f2_1-0.html");
  CHECK(attr_of(failed, "compile-overview", "data-status") == "failed");
}

TEST_CASE("the report needs no network and every link resolves") {
  const FixtureReport f = fixture_report("links");
  REQUIRE(f.result.ok);
  std::vector<std::string> broken = broken_links(f.dir);
  for (const std::string& b : broken) INFO(b);
  CHECK(broken.empty());
  for (const auto& page : html_files(f.dir)) {
    std::string html = slurp(page);
    INFO(page);
    CHECK(html.find("http://") == std::string::npos);
    CHECK(html.find("https://") == std::string::npos);
  }
}

TEST_CASE("the link checker finds missing pages and external links, and passes anchors") {
  fs::path dir = fresh_scratch("test-artifacts", "link-checker");
  fs::create_directories(dir / "sub");
  spit(dir / "sub" / "here.html", "<p>here</p>");
  spit(dir / "index.html",
       "<a href=\"sub/here.html#top\">ok</a> <a href=\"#local\">ok</a> "
       "<img src=\"gone.png\"> <a href=\"https://example.com/x\">out</a> "
       "<a data-href=\"sub/here.html\" href=\"missing.html\">bad</a>");
  CHECK(link_targets(slurp(dir / "index.html")) ==
        std::vector<std::string>{"sub/here.html#top", "#local", "gone.png",
                                 "https://example.com/x", "sub/here.html", "missing.html"});
  std::vector<std::string> broken = broken_links(dir);
  std::sort(broken.begin(), broken.end());
  const std::string page = (dir / "index.html").string();
  CHECK(broken == std::vector<std::string>{page + " -> external https://example.com/x",
                                           page + " -> gone.png", page + " -> missing.html"});
}

TEST_CASE("log text is escaped on every page") {
  const FixtureReport f = fixture_report("escaping");
  REQUIRE(f.result.ok);
  size_t escaped_seen = 0;
  for (const auto& page : html_files(f.dir)) {
    std::string html = slurp(page);
    INFO(page);
    CHECK(html.find("<script>document.title") == std::string::npos);
    CHECK(html.find("<img src=x") == std::string::npos);
    CHECK(html.find("onerror=\"document") == std::string::npos);
    escaped_seen += count_of(html, "&lt;script&gt;document.title=&#39;PWNED&#39;");
    escaped_seen += count_of(html, "&lt;img src=x onerror=");
  }
  // The hostile text is shown (as text) on the graph-break, compile and failure pages.
  CHECK(escaped_seen >= 4);
  for (const char* data : {"data/collectives.js", "data/compile_timeline.js"}) {
    std::string js = slurp(fs::path(f.dir) / data);
    CHECK(js.find("</script") == std::string::npos);
  }
}

TEST_CASE("report on a missing or non-database file fails with a message naming it") {
  fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "report-bad";
  fs::create_directories(root);
  tlscope::exporters::ReportOptions o;
  o.db_path = (root / "missing.db").string();
  o.out_dir = (root / "out").string();
  auto r = tlscope::exporters::write_report(o);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("missing.db") != std::string::npos);
  {
    std::ofstream junk(root / "junk.db");
    junk << "this is not sqlite\n";
  }
  o.db_path = (root / "junk.db").string();
  r = tlscope::exporters::write_report(o);
  CHECK_FALSE(r.ok);
  CHECK(r.error.find("junk.db") != std::string::npos);
}

TEST_CASE("logged values of a large tensor are drawn summarised with the right numbers") {
  const FixtureReport f = fixture_report("values");
  REQUIRE(f.result.ok);
  std::string index = slurp(fs::path(f.dir) / "tensor_values.html");
  CHECK(attr_of(index, "tensor-values", "data-count") == "1");
  // The hostile tensor name is shown as text.
  CHECK(index.find("big&lt;script&gt;") != std::string::npos);
  std::string page = slurp(fs::path(f.dir) / "tensor" / "values_1.html");
  // 4096 elements > the 1000-element threshold: 3 first, an ellipsis, 3 last per dim: 7 x 7.
  CHECK(attr_of(page, "tensor-grid", "data-summarized") == "1");
  CHECK(attr_of(page, "tensor-grid", "data-cells") == "49");
  CHECK(count_of(page, "class=\"cell\"") == 49);
  CHECK(count_of(page, "data-idx=") == 36);  // the 13 ellipsis cells carry no index
  // Element [i, j] holds (64 i + j) / 2, read back from the logged flat values.
  CHECK(page.find("data-idx=\"0,1\" data-v=\"0.5\"") != std::string::npos);
  CHECK(page.find("data-idx=\"62,63\" data-v=\"2015.5\"") != std::string::npos);
  CHECK(page.find("data-idx=\"63,63\" data-v=\"2047.5\"") != std::string::npos);
  CHECK(page.find(">2047</div>") != std::string::npos);  // [63, 62]: 4094 / 2
}
