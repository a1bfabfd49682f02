// The ranks screen's view model on the real 4-rank log and on hand-built ranks whose counts are
// known: which value is the majority, which cells differ, and how the divergences page.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "tlscope/views/rank_divergence.hpp"
#include "views/real_db.hpp"

using namespace tlscope;
using namespace tlscope::test;

namespace {

const std::vector<std::string> kCountLabels = {"compiles",    "failed compiles", "graph breaks",
                                               "recompiles",  "cache hits",      "cache misses",
                                               "collectives", "compile time"};

std::vector<std::string> labels(const views::RankDivergence& v) {
  std::vector<std::string> out;
  for (const auto& row : v.counts) out.push_back(row.label);
  return out;
}

// Two ranks: rank 0 compiles one frame, rank 1 two, and its second fails.
std::string two_rank_fixture(const std::string& name) {
  FixtureDb db;
  for (int64_t rank = 0; rank < 2; ++rank) {
    db.add_file("rank" + std::to_string(rank) + ".log", rank);
    db.dynamo_start(ctx(0, 0), {{"train.py", 1, "<module>"}});
    db.metrics(ctx(0, 0), "forward", ", duration_us", ", 1250000");
    if (rank == 1) {
      db.dynamo_start(ctx(1, 0), {{"train.py", 2, "<module>"}});
      db.metrics(ctx(1, 0), "loss", ", fail_type, fail_reason, duration_us",
                 ", 'BackendCompilerFailed', 'broken', 500000");
    }
  }
  std::string path = fixture_file(db, name);
  auto analysis = model::analysis::ensure_analysis(path);
  if (!analysis.ok) throw std::runtime_error(analysis.error);
  return path;
}

}  // namespace

TEST_CASE("Rank divergence of the real 4-rank log: counts per rank, majority and marks") {
  std::string path = analysed_real_log("ranks-real", {"multi_rank_logs"});
  views::Database db(path);
  auto view = views::load_rank_divergence(db);
  INFO(view.error);
  REQUIRE(view.ok());
  CHECK(view->ranks == std::vector<int64_t>{0, 1, 2, 3});
  REQUIRE(labels(*view) == kCountLabels);
  for (const views::RankCountRow& row : view->counts) {
    INFO(row.label);
    REQUIRE(row.values.size() == 4);
    std::map<std::string, int> votes;
    for (const auto& v : row.values) ++votes[v];
    CHECK(votes[row.majority] == std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) {
                                   return a.second < b.second;
                                 })->second);
    for (size_t i = 0; i < 4; ++i)
      CHECK(row.differs[i] == (row.compared && row.values[i] != row.majority));
  }
  // Compiles per rank equal the analysis table's own count.
  std::vector<std::string> compiles =
      query_rows(path, "SELECT count(*) FROM compiles WHERE rank IS NOT NULL GROUP BY rank");
  CHECK(view->counts[0].values == compiles);
  const views::RankCountRow& time = view->counts.back();
  CHECK_FALSE(time.compared);
  CHECK(std::none_of(time.differs.begin(), time.differs.end(), [](bool d) { return d; }));
  for (const auto& v : time.values) CHECK(v.substr(v.size() - 2) == " s");

  // Every divergence row, and a page of them that is the same slice of the list.
  size_t total = std::stoul(query_rows(path, "SELECT count(*) FROM rank_divergence")[0]);
  CHECK(view->divergences.total == total);
  CHECK(view->divergences.rows.size() == total);
  if (total >= 3) {
    auto page = views::load_rank_divergence(db, views::Page{1, 2});
    REQUIRE(page.ok());
    CHECK(page->divergences.total == total);
    REQUIRE(page->divergences.rows.size() == 2);
    CHECK(page->divergences.rows[0].aspect == view->divergences.rows[1].aspect);
    CHECK(page->divergences.rows[1].value == view->divergences.rows[2].value);
  }
}

TEST_CASE("Rank divergence marks the cells that differ from the majority, ties take the smaller") {
  std::string path = two_rank_fixture("ranks-two");
  views::Database db(path);
  auto view = views::load_rank_divergence(db);
  INFO(view.error);
  REQUIRE(view.ok());
  REQUIRE(view->counts.size() == kCountLabels.size());
  const views::RankCountRow& compiles = view->counts[0];
  CHECK(compiles.values == std::vector<std::string>{"1", "2"});
  CHECK(compiles.majority == "1");  // one vote each: the smaller text wins
  CHECK(compiles.differs == std::vector<bool>{false, true});
  const views::RankCountRow& failed = view->counts[1];
  CHECK(failed.values == std::vector<std::string>{"0", "1"});
  CHECK(failed.differs == std::vector<bool>{false, true});
  CHECK(view->counts.back().values == std::vector<std::string>{"1.25 s", "1.75 s"});
  CHECK(view->counts.back().differs == std::vector<bool>{false, false});
  // The analysis records that the ranks compiled different frames.
  CHECK(view->divergences.total >= 1);
  CHECK(view->divergences.rows.size() == view->divergences.total);
}

TEST_CASE("Rank divergence of one rank has nothing to compare, a broken table names the database") {
  FixtureDb one;
  one.add_file("rank0.log", 0);
  one.dynamo_start(ctx(0, 0), {{"train.py", 1, "<module>"}});
  one.metrics(ctx(0, 0), "forward");
  std::string path = fixture_file(one, "ranks-one");
  REQUIRE(model::analysis::ensure_analysis(path).ok);
  {
    views::Database db(path);
    auto view = views::load_rank_divergence(db);
    REQUIRE(view.ok());
    CHECK(view->ranks == std::vector<int64_t>{0});
    CHECK(view->counts.empty());
    CHECK(view->divergences.total == 0);
  }
  // A rank_divergence table without its columns (an older or damaged database).
  sqlite3* raw = nullptr;
  sqlite3_open(path.c_str(), &raw);
  sql_exec(raw, "DROP TABLE rank_divergence; CREATE TABLE rank_divergence(id INTEGER)");
  sqlite3_close(raw);
  views::Database db(path);
  auto view = views::load_rank_divergence(db);
  CHECK_FALSE(view.ok());
  CHECK(view.error.find(path) != std::string::npos);
  CHECK(view.error.find("aspect") != std::string::npos);
  CHECK(view->ranks == std::vector<int64_t>{0});  // what could be read still is
}
