// The summary, findings, ingest-error, occurrence and compile-tree view models over hand-built
// databases: grouping and order, caps and pages, counts computed once, and errors that name the
// database.
#include <catch2/catch.hpp>
#include <set>

#include "tlscope/views/compile_tree.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/ingest_errors.hpp"
#include "tlscope/views/occurrences.hpp"
#include "tlscope/views/screens.hpp"
#include "tlscope/views/summary.hpp"
#include "views/schema_fixture.hpp"

using namespace tlscope::views;

namespace {

std::string fixture(const std::string& name, const std::string& extra_sql) {
  return tlscope::test::make_fixture_db(std::string(TLSCOPE_BINARY_DIR) + "/tests/" + name,
                                        extra_sql);
}

// A findings table (the analysis's own DDL) with kinds out of order, one kind this build does not
// know and a rank that was the straggler twice in one group.
std::string findings_sql() {
  return tlscope::test::analysis_table_sql("findings") + R"sql(
INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, frame, pg_name, pg_desc, seq,
  detail) VALUES
  ('graph_break', 'warning', '[0]', '[]', '0/0', 'f', NULL, NULL, NULL, '{"reason": "break 1"}'),
  ('straggler', 'warning', '[3]', '[0]', NULL, NULL, '0', 'dp', 1,
   '{"op": "all_reduce", "lag_us": 1500, "wait_us": 1500}'),
  ('graph_break', 'warning', '[1]', '[]', '0/0', 'f', NULL, NULL, NULL, '{"reason": "break 2"}'),
  ('future_kind', 'info', '[]', '[]', NULL, NULL, NULL, NULL, NULL, '{}'),
  ('compile_failure', 'error', '[0,2]', '[]', '0/0', 'f', NULL, NULL, NULL,
   '{"fail_type": "E", "fail_reason": "failed"}'),
  ('straggler', 'warning', '[3]', '[0]', NULL, NULL, '0', 'dp', 2,
   '{"op": "all_reduce", "lag_us": 500, "wait_us": 500}'),
  ('graph_break', 'warning', '[2]', '[]', '0/0', 'f', NULL, NULL, NULL, '{"reason": "break 3"}');
)sql";
}

}  // namespace

TEST_CASE("Finding kinds: one row each, most serious first, pages the report has") {
  std::set<std::string_view> kinds, pages;
  for (const Screen& s : kScreens) pages.insert(s.report_page);
  bool seen_warning = false;
  for (const FindingKindInfo& k : kFindingKinds) {
    INFO(k.kind);
    CHECK(kinds.insert(k.kind).second);
    CHECK(pages.count(k.page) == 1);
    CHECK((k.severity == "error" || k.severity == "warning" || k.severity == "info"));
    // Errors come before every warning.
    if (k.severity != "error") seen_warning = true;
    if (seen_warning) CHECK(k.severity != "error");
    CHECK(tlscope::model::analysis::find_finding_kind(k.kind) == &k);
  }
  CHECK(tlscope::model::analysis::find_finding_kind("no_such_kind") == nullptr);
}

TEST_CASE("Findings are grouped in kFindingKinds order, capped per kind, unknown kinds kept") {
  Database db(fixture("views_findings.db", findings_sql()));
  REQUIRE(db.ok());
  auto f = load_findings(db, 2);
  INFO(f.error);
  REQUIRE(f.ok());
  CHECK(f->analysed);
  CHECK(f->total == 7);
  REQUIRE(f->groups.size() == 3);
  CHECK(f->groups[0].kind->kind == "compile_failure");
  CHECK(f->groups[0].rows.at(0).ranks == std::vector<int64_t>{0, 2});
  CHECK(f->groups[0].rows.at(0).severity == "error");
  CHECK(f->groups[1].kind->kind == "straggler");
  CHECK(f->groups[2].kind->kind == "graph_break");
  CHECK(f->groups[2].count == 3);
  REQUIRE(f->groups[2].rows.size() == 2);  // the cap
  CHECK(f->groups[2].rows[0].message == "rank 0: graph break in f (compile 0/0): break 1");
  CHECK(f->groups[2].rows[1].message == "rank 1: graph break in f (compile 0/0): break 2");
  REQUIRE(f->unknown.size() == 1);
  CHECK(f->unknown[0].kind == "future_kind");
  CHECK(f->unknown[0].message == "a finding of kind future_kind");
  // Rank 3 was late twice in group 0: the others waited 2 ms for it.
  REQUIRE(f->late_again.size() == 1);
  CHECK(f->late_again[0].ranks == std::vector<int64_t>{3});
  CHECK(f->late_again[0].pg_desc == "dp");
  CHECK(f->late_again[0].times == 2);
  CHECK(f->late_again[0].wait_us == Approx(2000));
  CHECK(load_findings(db)->groups[2].rows.size() == 3);  // no cap
}

TEST_CASE("Without a findings table the findings say not analysed, without error") {
  Database db(fixture("views_no_findings.db", ""));
  auto f = load_findings(db);
  CHECK(f.ok());
  CHECK_FALSE(f->analysed);
  CHECK(f->groups.empty());
}

TEST_CASE("A broken findings table is an error naming the database") {
  std::string path =
      fixture("views_bad_findings.db", "CREATE TABLE findings(id INTEGER PRIMARY KEY, kind TEXT)");
  Database db(path);
  auto f = load_findings(db);
  CHECK_FALSE(f.ok());
  CHECK(f.error.find(path) != std::string::npos);
}

TEST_CASE("Summary: ranks counted from the files, compiles and errors by kind") {
  Database db(fixture("views_summary_ranks.db",
                      "INSERT INTO files(id, path, rank, gzip, lines, events, errors, completed) "
                      "VALUES (3, 'rank0.log', 0, 0, 5, 4, 0, 1), (4, 'rank2.log', 2, 0, 5, 3, 0, "
                      "0), (5, 'rank2b.log', 2, 0, 5, 2, 0, 1);"));
  auto s = load_summary(db);
  INFO(s.error);
  REQUIRE(s.ok());
  CHECK(s->rank_count == 2);  // ranks 0 and 2; the two files without a rank do not count
  REQUIRE(s->ranks.size() == 3);
  CHECK(s->ranks[0].rank == -1);
  CHECK(s->ranks[0].files == 2);
  CHECK(s->ranks[2].rank == 2);
  CHECK(s->ranks[2].files == 2);
  CHECK(s->ranks[2].events == 5);
  CHECK_FALSE(s->files[3].completed);
  CHECK(s->compiles == 1);
  CHECK(s->failed_compiles == 1);
  CHECK(s->errors == 2);
  REQUIRE(s->error_kinds.size() == 2);
  CHECK(s->error_kinds[0].kind == "bad_json");
  CHECK(s->compile_ids.empty());  // the fixture's events carry no compile id
}

TEST_CASE("Ingest errors come a page at a time with the total") {
  Database db(fixture("views_error_pages.db", ""));
  auto first = load_ingest_errors(db, Page{0, 1});
  REQUIRE(first.ok());
  CHECK(first->total == 2);
  REQUIRE(first->rows.size() == 1);
  CHECK(first->rows[0].path == "chromium_events.log");
  CHECK(first->rows[0].byte_offset == 3000);
  auto second = load_ingest_errors(db, Page{1, 1});
  REQUIRE(second->rows.size() == 1);
  CHECK(second->rows[0].path.empty());
  CHECK(second->rows[0].line == -1);
  CHECK(load_ingest_errors(db, Page{2, 5})->rows.empty());
  CHECK(load_ingest_errors(db, Page{0, 0})->total == 2);
}

TEST_CASE("Occurrence groups: most frequent first, ranks per group, a page of groups") {
  Database db(
      fixture("views_cache_groups.db", tlscope::test::analysis_table_sql("cache_events") + R"sql(
INSERT INTO cache_events(file_id, rank, compile_id, cache, result, event_id) VALUES
  (1, 0, '0/0', 'fx_graph', 'miss', 1), (1, 1, '0/1', 'fx_graph', 'hit', 3),
  (1, 1, '0/2', 'fx_graph', 'hit', 4), (1, 3, '0/3', 'aotautograd', 'bypass', 5),
  (1, 0, '0/4', 'fx_graph', 'hit', 6);
)sql"));
  auto all = load_occurrence_groups(db, OccurrenceList::kCache);
  INFO(all.error);
  REQUIRE(all.ok());
  CHECK(all->headers == std::vector<std::string>{"cache", "outcome"});
  CHECK(all->group_count == 3);
  CHECK(all->occurrence_count == 5);
  REQUIRE(all->groups.size() == 3);
  const OccurrenceGroup& hits = all->groups[0];
  CHECK(hits.count == 3);
  CHECK(hits.cells[1].text == "hit");
  CHECK(hits.cells[1].tone == CellTone::kGood);
  CHECK(hits.ranks == std::set<int64_t>{0, 1});
  CHECK(hits.occurrences[0].compile_id == "0/1");
  CHECK(hits.occurrences[0].line == 15);  // event 3's line in the fixture
  // Equal counts keep first-seen order: the miss before the bypass.
  CHECK(all->groups[1].cells[1].text == "miss");
  CHECK(all->groups[2].cells[1].tone == CellTone::kMuted);
  auto page = load_occurrence_groups(db, OccurrenceList::kCache, Page{1, 1});
  CHECK(page->group_count == 3);
  REQUIRE(page->groups.size() == 1);
  CHECK(page->groups[0].index == 1);
  CHECK(page->groups[0].cells[1].text == "miss");
  auto totals = load_cache_totals(db);
  CHECK(totals->hits == 3);
  CHECK(totals->misses == 1);
  CHECK(totals->bypasses == 1);
  // A list whose table is missing says so, naming the database.
  auto breaks = load_occurrence_groups(db, OccurrenceList::kGraphBreaks);
  CHECK_FALSE(breaks.ok());
  CHECK(breaks.error.find("views_cache_groups.db") != std::string::npos);
}

TEST_CASE("Compile tree: depth-first frames, compiles under their frame, the cut counted") {
  const std::string tree_sql = tlscope::test::analysis_table_sql("compile_tree") + R"sql(
INSERT INTO compile_tree VALUES (1, NULL, 2, NULL, 0, 'train.py', 10, 'main', 1),
  (2, 1, 2, NULL, 1, 'model.py', 20, 'forward', 1), (3, NULL, 3, 1, 0, 'train.py', 10, 'main', 0),
  (4, 1, 2, NULL, 1, 'model.py', 30, 'loss', 0);
UPDATE compiles SET tree_node_id = 2;
INSERT INTO compiles(id, file_id, compile_id, first_event_id, status) VALUES (2, 3, '1/0', 9, 'ok');
)sql";
  Database db(fixture("views_compile_tree.db", tree_sql));
  auto t = load_compile_tree(db);
  INFO(t.error);
  REQUIRE(t.ok());
  REQUIRE(t->frames.size() == 4);
  CHECK(t->frames[0].name == "main");
  CHECK(t->frames[0].first_of_file);
  CHECK(t->frames[1].name == "forward");
  CHECK_FALSE(t->frames[1].first_of_file);
  REQUIRE(t->frames[1].compiles.size() == 1);
  CHECK(t->compiles[t->frames[1].compiles[0]].compile_id == "0/0");
  CHECK(t->frames[2].name == "loss");
  CHECK(t->frames[3].file_id == 3);
  CHECK(t->frames[3].first_of_file);
  CHECK(t->frames[3].rank == 1);
  // Compile 1/0 has no stack: it is listed apart.
  REQUIRE(t->without_stack.size() == 1);
  CHECK(t->compiles[t->without_stack[0]].compile_id == "1/0");
  auto cut = load_compile_tree(db, 2);
  CHECK(cut->frames.size() == 2);
  CHECK(cut->frames_total == 4);
}
