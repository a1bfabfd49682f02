// One huge cell in a database from elsewhere (docs/schema.md, "Long text"): views/ hands the
// front ends its first kCellTextLimit bytes with a note of the full size, never the whole text.
// A 2 MB cell proves the bound that a 100 MB one needs (bench/README.md, "One huge string").
#include <catch2/catch.hpp>

#include <string>

#include "common/sql_rows.hpp"
#include "real_db.hpp"
#include "tlscope/views/cell_text.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/compile_tree.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/findings.hpp"
#include "tlscope/views/occurrences.hpp"

using namespace tlscope;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;

namespace {

constexpr size_t kHuge = 2'000'000;
const std::string kHugeNote = " ... [clipped: 2000000 bytes in all]";

// A text views/ may hold for one cell: the limit and the note.
bool bounded(const std::string& text) {
  return text.size() <= views::kCellTextLimit + 64;
}

// `sql`'s placeholder HUGE replaced by a 2 MB text of 'x' (built by SQLite, not by the test).
std::string with_huge(const std::string& sql) {
  std::string out = sql;
  const std::string huge = "printf('%.*c', " + std::to_string(kHuge) + ", 'x')";
  for (size_t at = out.find("HUGE"); at != std::string::npos; at = out.find("HUGE", at))
    out.replace(at, 4, huge);
  return out;
}

}  // namespace

TEST_CASE("clip_cell_text keeps short text and clips long text with its full size",
          "[views][long]") {
  CHECK(views::clip_cell_text("abc", 3) == "abc");
  CHECK(views::clip_cell_text("abcd", 3) == "abc ... [clipped: 4 bytes in all]");
  // Never ends inside a UTF-8 sequence: "é" is two bytes, the cut at 3 falls inside the second.
  CHECK(views::clip_cell_text("a\xc3\xa9\xc3\xa9", 4) == "a\xc3\xa9 ... [clipped: 5 bytes in all]");
  std::string appended = "x=";
  views::append_clipped(appended, "12345", 2);
  CHECK(appended == "x=12 ... [clipped: 5 bytes in all]");
}

TEST_CASE("a 2 MB failure reason, co_name and finding's reason read clipped with their size",
          "[views][long]") {
  std::string path = test::analysed_real_log("long_cells", {"comp_failure.log"});
  test::sql_exec_file(path,
                      with_huge("UPDATE compiles SET fail_reason = HUGE, co_name = HUGE "
                                "WHERE fail_reason IS NOT NULL;"
                                "UPDATE failures SET fail_reason = HUGE;"
                                "UPDATE findings SET detail = json_set(detail, '$.fail_reason', "
                                "HUGE), frame = HUGE;"));
  views::Database db(path);
  REQUIRE(db.ok());

  auto s = db.prepare("SELECT fail_reason FROM failures");
  REQUIRE(s.step());
  CHECK(s.text(0).size() < views::kCellTextLimit + 64);
  CHECK_THAT(s.text(0), EndsWith(kHugeNote));
  CHECK(s.full_text(0).size() == kHuge);  // payload-like reads still see it all

  auto failures = views::load_occurrence_groups(db, views::OccurrenceList::kFailures);
  REQUIRE(failures.ok());
  REQUIRE(!failures->groups.empty());
  bool noted = false;
  for (const auto& g : failures->groups)
    for (const views::Cell& c : g.cells) {
      CHECK(bounded(c.text));
      noted |= c.text.find(kHugeNote) != std::string::npos;
    }
  CHECK(noted);

  auto tree = views::load_compile_tree(db);
  REQUIRE(tree.ok());
  size_t clipped = 0;
  for (const views::CompileRow& c : tree->compiles) {
    CHECK(bounded(c.co_name));
    CHECK(bounded(c.fail_reason));
    clipped += c.fail_reason.ends_with(kHugeNote);
  }
  CHECK(clipped > 0);

  auto findings = views::load_findings(db);
  REQUIRE(findings.ok());
  REQUIRE(!findings->groups.empty());
  for (const views::FindingGroup& g : findings->groups)
    for (const views::FindingRow& f : g.rows) {
      // A sentence quotes a few cells (here the frame and the reason), each clipped.
      CHECK(f.message.size() < 3 * views::kCellTextLimit);
      CHECK_THAT(f.message, Contains("[clipped: 2000000 bytes in all]"));
    }
}

TEST_CASE("a 2 MB payload is read clipped where a front end draws it, whole where it is written",
          "[views][long]") {
  std::string path = test::analysed_real_log("long_payload", {"simple.log"});
  test::sql_exec_file(path, with_huge("UPDATE payloads SET text = HUGE WHERE id = "
                                      "(SELECT min(id) FROM payloads);"));
  views::Database db(path);
  REQUIRE(db.ok());
  int64_t id = db.scalar("SELECT min(id) FROM payloads");
  views::CompileDetailReader reader(db);
  auto clipped = reader.payload_text(id, 1 << 20);
  REQUIRE(clipped.ok());
  CHECK(clipped->size() < (1 << 20) + 64);
  CHECK_THAT(*clipped, EndsWith(kHugeNote));
  size_t seen = 0;
  auto read = reader.with_payload_text(id, [&](std::string_view text) { seen = text.size(); });
  CHECK(read.value);
  CHECK(seen == kHuge);
  CHECK(read.ok());
}
