// A log with one huge line (docs/schema.md, "Long text"): the analysis writes the texts it takes
// from a record clipped to kCellTextLimit bytes with a note of their full size, so a 100 MB
// failure reason is not copied into every table and finding (bench/README.md, "One huge
// string"). A 4 MB text proves the bound: 60 times the limit.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/analysis_harness.hpp"
#include "analysis/findings_messages.hpp"
#include "common/scratch_files.hpp"
#include "tlscope/model/cell_text.hpp"

using tlscope::model::kCellTextLimit;
using tlscope::test::AnalyzedDb;

namespace {

constexpr size_t kHuge = 4'000'000;

// comp_failure.log with its compilation_metrics record's failure reason, co_name and (added)
// recompile_reason each made kHuge bytes long: a record without a payload, so no MD5 to keep.
std::string huge_line_log() {
  std::string log = tlscope::test::slurp(std::string(TLSCOPE_SHARED_LOGS) + "/comp_failure.log");
  const std::string huge(kHuge, 'x');
  auto replace = [&](const std::string& from, const std::string& to) {
    size_t at = log.find(from);
    REQUIRE(at != std::string::npos);
    log.replace(at, from.size(), to);
  };
  replace("\"fail_reason\": \"backend='broken_backend' raised:\\nRuntimeError: broken backend\"",
          "\"fail_reason\": \"" + huge + "\"");
  replace("\"co_name\": \"fn\"", "\"co_name\": \"" + huge + "\"");
  replace("{\"compilation_metrics\": {",
          "{\"compilation_metrics\": {\"recompile_reason\": \"" + huge + "\", ");
  auto dir = tlscope::test::fresh_scratch("test-analysis", "huge_line");
  std::string path = (dir / "comp_failure_huge.log").string();
  tlscope::test::spit(path, log);
  return path;
}

}  // namespace

TEST_CASE("a log's 4 MB reason and name are written clipped into the analysis tables",
          "[analysis][long]") {
  AnalyzedDb db("huge_line", {huge_line_log()});
  INFO(db.ingest_problems() << db.report().error);
  REQUIRE(db.report().ok);
  const std::string clipped = "'" + std::string(kCellTextLimit, 'x') +
                              " ... [clipped: " + std::to_string(kHuge) + " bytes in all]'";

  // The ingest table keeps the record's values whole.
  CHECK(db.scalar("SELECT length(fail_reason) || ' ' || length(co_name) || ' ' || "
                  "length(recompile_reason) FROM compilation_metrics_rows "
                  "WHERE fail_reason IS NOT NULL") == "4000000 4000000 4000000");

  // The analysis tables hold the first kCellTextLimit bytes and the full size.
  CHECK(db.scalar("SELECT count(*) FROM compiles WHERE fail_reason = " + clipped +
                  " AND co_name = " + clipped + " AND recompile_reason = " + clipped) == "1");
  CHECK(db.scalar("SELECT count(*) FROM failures WHERE fail_reason = " + clipped +
                  " AND frame = " + clipped) == "1");
  CHECK(db.scalar("SELECT count(*) FROM recompiles WHERE reason = " + clipped +
                  " AND frame = " + clipped) == "1");

  // Findings hold the clipped texts as facts, and their sentences quote them: each a few times the
  // limit, not the log's size.
  CHECK(db.scalar("SELECT group_concat(kind) FROM (SELECT kind FROM findings ORDER BY kind)") ==
        "compile_failure,recompile");
  CHECK(db.scalar("SELECT max(length(frame)) <= " + std::to_string(kCellTextLimit + 64) +
                  " AND max(length(detail)) < 3 * " + std::to_string(kCellTextLimit) +
                  " FROM findings") == "1");
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE coalesce(json_extract(detail, "
                  "'$.fail_reason'), json_extract(detail, '$.failed_guard')) = " +
                  clipped) == "2");
  size_t noted = 0;
  for (const auto& f : tlscope::test::worded_findings(db.db())) {
    CHECK(f.sentence.size() < 3 * kCellTextLimit);
    noted += f.sentence.find("[clipped: " + std::to_string(kHuge) + " bytes in all]") !=
             std::string::npos;
  }
  CHECK(noted == 2);
}
