// Pagination: with a small --rows-per-page every list page that grows with the log is split, no
// page holds more rows than the cap, and the pages together hold every row the database has
// (compiles, graph-break and recompile groups and all their occurrences, cache events).
#include <catch2/catch.hpp>


#include "analysis/fixture_db.hpp"
#include "exporters/report_support.hpp"
#include "tlscope/exporters/report.hpp"

using namespace tlscope::test;
namespace fs = std::filesystem;

namespace {

constexpr size_t kPerPage = 4;

// One rank; frame 0 compiled 30 times, each compile with the same graph break (one group of 30)
// and, from the second on, the same failed size guard (one group of 29); 5 compiles of frame 1
// break for 5 distinct reasons (5 groups of 1); every compile logs a cache miss.
void write_many_compiles(const std::string& path) {
  FixtureDb db;
  db.add_file("dedicated_log_torch_trace_rank_0.log", 0);
  for (int64_t k = 0; k < 30; ++k) {
    if (k > 0) {
      db.artifact(ctx(0, k), "recompile_reasons",
                  "[\"0/" + std::to_string(k - 1) +
                      ": tensor 'x' size mismatch at index 0. expected 4, actual 8\"]",
                  "json", 0);
    }
    db.dynamo_start(ctx(0, k), {{"train.py", 10, "<module>"}, {"model.py", 42, "forward"}});
    db.artifact(ctx(0, k), "dynamo_graph_break_reason",
                "Graph break in user code at model.py:43\nGraph Break Reason: print()\n", "string",
                0);
    db.artifact(ctx(0, k), "fx_graph_cache_miss", "{}", "json", 0);
    db.metrics(ctx(0, k), "forward", ", graph_op_count, restart_reasons", ", 3, '[]'");
  }
  for (int64_t k = 0; k < 5; ++k) {
    db.dynamo_start(ctx(1, k), {{"train.py", 12, "<module>"}, {"model.py", 50, "loss"}});
    db.artifact(ctx(1, k), "dynamo_graph_break_reason",
                "Graph break in user code at model.py:5" + std::to_string(k) +
                    "\nGraph Break Reason: reason " + std::to_string(k) + "\n",
                "string", 0);
    db.metrics(ctx(1, k), "loss", ", graph_op_count, restart_reasons", ", 2, '[]'");
  }
  std::filesystem::remove(path);
  db.exec("VACUUM INTO " + FixtureDb::q(path));
}

// Files base.html, base_2.html, ... in page order.
std::vector<fs::path> pages_of(const fs::path& site, const std::string& base) {
  std::vector<fs::path> out;
  for (size_t k = 1;; ++k) {
    fs::path p = site / (k == 1 ? base + ".html" : base + "_" + std::to_string(k) + ".html");
    if (!fs::exists(p)) return out;
    out.push_back(p);
  }
}

// Checks the group pages of `base`: at most kPerPage group rows a page, their counts add up to
// `rows_in_db`, and each group's occurrences (inline, or on its own pages of at most kPerPage)
// number exactly its count. Returns the number of groups.
size_t check_group_pages(const fs::path& site, const std::string& base, long long rows_in_db) {
  long long total = 0;
  size_t groups = 0;
  std::vector<fs::path> pages = pages_of(site, base);
  REQUIRE(!pages.empty());
  for (const fs::path& page : pages) {
    INFO(page);
    std::string html = slurp(page);
    size_t rows = count_of(html, "<tr class=\"group\"");
    CHECK(rows <= kPerPage);
    CHECK(rows > 0);
    groups += rows;
    for (size_t at = html.find("<tr class=\"group\""); at != std::string::npos;
         at = html.find("<tr class=\"group\"", at + 1)) {
      std::string row = html.substr(at, html.find("</tr>", at) - at);
      std::optional<std::string> count_text = value_after(row, "data-count=\"");
      REQUIRE(count_text);
      REQUIRE(!count_text->empty());
      REQUIRE(count_text->find_first_not_of("0123456789") == std::string::npos);
      long long count = std::stoll(*count_text);
      total += count;
      long long listed = 0;
      // A group too long to list inline links its own pages: <base>_g<N>.html, <base>_g<N>_2.html...
      std::optional<std::string> all = value_after(row, "class=\"all-occurrences\" href=\"");
      if (all) {
        REQUIRE(all->size() > 5);
        REQUIRE(all->substr(all->size() - 5) == ".html");
        REQUIRE(all->find("_g") != std::string::npos);
        std::vector<fs::path> occ_pages = pages_of(site, all->substr(0, all->size() - 5));
        CHECK(occ_pages.size() == (count + kPerPage - 1) / kPerPage);
        for (const fs::path& op : occ_pages) {
          size_t n = count_of(slurp(op), "<li class=\"occ\">");
          CHECK(n <= kPerPage);
          listed += n;
        }
      } else {
        listed = count_of(row, "<li class=\"occ\">");
      }
      CHECK(listed == count);
    }
  }
  CHECK(total == rows_in_db);
  return groups;
}

}  // namespace

TEST_CASE("every growing list is paginated and the pages hold every row") {
  fs::path root = fs::path(TLSCOPE_BINARY_DIR) / "test-artifacts" / "report-pagination";
  fs::remove_all(root);
  fs::create_directories(root);
  std::string db = (root / "many.db").string();
  write_many_compiles(db);
  tlscope::exporters::ReportOptions o;
  o.db_path = db;
  o.out_dir = (root / "site").string();
  o.rows_per_page = kPerPage;
  auto r = tlscope::exporters::write_report(o);
  INFO(r.error);
  REQUIRE(r.ok);
  fs::path site = root / "site";

  // The compile tree: at most kPerPage rows (frames and compiles) a page, all 35 compiles.
  long long compiles = db_count(db, "SELECT count(*) FROM compiles");
  CHECK(compiles == 35);
  long long listed = 0;
  std::vector<fs::path> tree_pages = pages_of(site, "compiles");
  CHECK(static_cast<long long>(tree_pages.size()) >= compiles / static_cast<long long>(kPerPage));
  for (const fs::path& p : tree_pages) {
    std::string html = slurp(p);
    size_t n = count_of(html, "<li class=\"compile\">");
    CHECK(n <= kPerPage);
    CHECK(attr_of(html, "compile-tree", "data-page-compiles") == std::to_string(n));
    listed += static_cast<long long>(n);
  }
  CHECK(listed == compiles);
  // A page that starts inside forward's frame repeats it, marked as continued.
  CHECK(slurp(tree_pages[2]).find("<li class=\"continued\">") != std::string::npos);

  CHECK(check_group_pages(site, "graph_breaks",
                          db_count(db, "SELECT count(*) FROM graph_breaks")) == 6);
  CHECK(db_count(db, "SELECT count(*) FROM graph_breaks") == 35);
  CHECK(check_group_pages(site, "recompiles", db_count(db, "SELECT count(*) FROM recompiles")) ==
        1);
  CHECK(db_count(db, "SELECT count(*) FROM recompiles") == 29);
  CHECK(check_group_pages(site, "cache", db_count(db, "SELECT count(*) FROM cache_events")) == 1);

  std::vector<std::string> broken = broken_links(site);
  for (const std::string& b : broken) INFO(b);
  CHECK(broken.empty());
}
