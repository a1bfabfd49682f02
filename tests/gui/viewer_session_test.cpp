// The viewer session (gui/src/viewer_session.hpp) without a window: it refuses what is not a
// tlscope database, reads a panel's model when first asked (not at open) and keeps it, the open's
// thread reads exactly what the first frame's navigation asks, and two sessions (compare mode) are
// two runs with their own connection and selection.
#include <sqlite3.h>

#include <catch2/catch.hpp>

#include "common/scratch_files.hpp"
#include "compare_view.hpp"
#include "gui_support.hpp"
#include "ingested_db.hpp"
#include "open_job.hpp"
#include "panel.hpp"
#include "viewer_session.hpp"

namespace fs = std::filesystem;
using namespace tlscope::gui;

namespace {

// A real log ingested and analysed into dir/NAME.db.
std::string real_db(const fs::path& dir, const std::string& log, const std::string& name) {
  return gui_test::ingested_db((dir / (name + ".db")).string(), {gui_test::kLogs + "/" + log});
}

// Drops `table` behind the session's back: a model read after this fails, one read before
// does not notice.
void drop_table(const std::string& db, const std::string& table) {
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open(db.c_str(), &raw) == SQLITE_OK);
  const std::string sql = "DROP TABLE " + table;
  CHECK(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(raw);
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  for (const auto& p : problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a viewer session refuses a file that is not a tlscope database, naming it") {
  const fs::path dir = gui_test::scratch("session_refuses");
  const fs::path text = dir / "notes.txt";
  tlscope::test::spit(text, "not a database\n");
  auto s = ViewerSession::open(text.string(), ViewerOptions{});
  CHECK_FALSE(s.ok());
  CHECK(s.value == nullptr);
  CHECK(s.error.find("notes.txt") != std::string::npos);
}

TEST_CASE("a viewer session reads a panel's model when first asked, then keeps it") {
  const fs::path dir = gui_test::scratch("session_lazy");
  const std::string db = real_db(dir, "comp_failure.log", "lazy");
  auto opened = ViewerSession::open(db, ViewerOptions{});
  REQUIRE(opened.ok());
  ViewerSession& session = **opened;
  CHECK(session.db_path() == db);
  CHECK(session.load_problems().empty());

  // Read once asked: the same object every time, with what views/ reads from the database.
  const tlscope::views::CompileTree& tree = session.compile_tree();
  CHECK(&tree == &session.compile_tree());
  const auto direct = tlscope::views::load_compile_tree(session.db());
  REQUIRE(direct.ok());
  REQUIRE_FALSE(tree.compiles.empty());
  CHECK(tree.compiles.size() == direct->compiles.size());
  CHECK(session.find_compile(compile_key(tree.compiles.front())) == &tree.compiles.front());
  CHECK(session.find_compile("no/such") == nullptr);

  // Not read at open: a table dropped after the open fails the model that reads it on first ask;
  // the compile tree, read before, is kept as it was.
  drop_table(db, "ingest_errors");
  CHECK(session.ingest_errors().empty());
  CHECK(mentions(session.load_problems(), "ingest_errors"));
  const size_t problems = session.load_problems().size();
  session.ingest_errors();  // kept, failed or not: not read (nor reported) again
  CHECK(session.load_problems().size() == problems);
  CHECK(session.compile_tree().compiles.size() == direct->compiles.size());
}

TEST_CASE("the open's thread reads what the first frame's navigation asks, and no more") {
  const fs::path dir = gui_test::scratch("session_first_frame");
  const std::string db = real_db(dir, "comp_failure.log", "first");
  auto opened = ViewerSession::open(db, ViewerOptions{});
  REQUIRE(opened.ok());
  ViewerSession& session = **opened;
  read_first_frame(session);
  const size_t compiles = session.compile_tree().compiles.size();
  REQUIRE(compiles > 0);
  // The compile tree (the navigation counts compiles) was read: dropping its table changes
  // nothing; the ingest error rows (the navigation counts them from the summary) were not.
  drop_table(db, "compile_tree");
  drop_table(db, "ingest_errors");
  CHECK(session.compile_tree().compiles.size() == compiles);
  CHECK_FALSE(mentions(session.load_problems(), "compile_tree"));
  CHECK_FALSE(mentions(session.load_problems(), "ingest_errors"));
  session.ingest_errors();
  CHECK(mentions(session.load_problems(), "ingest_errors"));
  // Every listed panel's count is there without another read.
  for (const auto& panel : make_panels())
    if (panel->shown(session)) panel->count(session);
  CHECK(session.load_problems().size() == 1);
}

TEST_CASE(
    "a compare-mode run reads its compile tree and timeline first, its panels' models later") {
  const fs::path dir = gui_test::scratch("session_first_frame_compare");
  const std::string db = real_db(dir, "comp_failure.log", "compare");
  auto opened = ViewerSession::open(db, ViewerOptions{});
  REQUIRE(opened.ok());
  ViewerSession& session = **opened;
  read_first_frame(session, FirstFrame::kCompare);
  const size_t compiles = session.compile_tree().compiles.size();
  REQUIRE(compiles > 0);
  const size_t zones = session.timeline_scene()->timeline.intervals.size();
  drop_table(db, "compile_tree");
  drop_table(db, "findings");
  CHECK(session.compile_tree().compiles.size() == compiles);
  CHECK(session.timeline_scene()->timeline.intervals.size() == zones);
  CHECK(session.load_problems().empty());
  // The findings panel's model was not read: read now, it fails on the dropped table; one run's
  // first frame reads it before (the navigation counts findings) and does not notice.
  session.findings();
  CHECK(mentions(session.load_problems(), "findings"));

  auto panels = ViewerSession::open(real_db(dir, "comp_failure.log", "panels"), ViewerOptions{});
  REQUIRE(panels.ok());
  read_first_frame(**panels, FirstFrame::kPanels);
  drop_table((*panels)->db_path(), "findings");
  (*panels)->findings();
  CHECK_FALSE(mentions((*panels)->load_problems(), "findings"));
}

TEST_CASE("two sessions are two runs: their own connection, models and selection") {
  const fs::path dir = gui_test::scratch("session_two_runs");
  const std::string a_db = real_db(dir, "comp_failure.log", "a");
  const std::string b_db = real_db(dir, "simple.log", "b");
  auto a = ViewerSession::open(a_db, ViewerOptions{});
  auto b = ViewerSession::open(b_db, ViewerOptions{});
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->get()->id() != b->get()->id());
  CHECK(&a->get()->db() != &b->get()->db());
  a->get()->nav().select(
      Selection{SelectionKind::kCompile, "0/0", tlscope::views::ScreenId::compile});
  CHECK(b->get()->nav().current().empty());
  // Compare mode compares through the two sessions' connections.
  CompareRuns runs = compare_runs(*a, *b, "A", "B");
  INFO(runs.error);
  CHECK(runs.error.empty());
  CHECK(runs.a.get() == a->get());
  CHECK(runs.b.get() == b->get());
  CHECK_FALSE(runs.comparison.frames.empty());
}
