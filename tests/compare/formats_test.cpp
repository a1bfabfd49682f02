// `--format json|markdown` on the reading commands, run as a user would (issue 28): every
// markdown table well formed (header, separator, one width), and the markdown telling the same
// counts as the command's JSON.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <string>

#include "common/markdown_tables.hpp"
#include "e2e/e2e_support.hpp"

namespace {

using tlscope::test::markdown_tables;
using tlscope::test::MarkdownTableFound;

const std::string kMultiRank = e2e::kLogs + "/multi_rank_logs";

// The tables of `text`, each required to be well formed.
std::vector<MarkdownTableFound> checked_tables(const std::string& text) {
  std::vector<MarkdownTableFound> tables = markdown_tables(text);
  for (const MarkdownTableFound& t : tables) {
    INFO(t.problem);
    CHECK(t.problem.empty());
  }
  return tables;
}

// `tlscope ARGS` with the command log and caches in the test's own folder.
e2e::RunResult in_state(const e2e::fs::path& dir, const std::string& args) {
  const std::string env = "XDG_STATE_HOME=" + e2e::q((dir / "state").string()) +
                          " XDG_CACHE_HOME=" + e2e::q((dir / "cache").string()) + " ";
  e2e::RunResult r;
  const std::string cmd = env + e2e::q(e2e::kTlscope) + " " + args + " >" +
                          e2e::q((dir / "out.txt").string()) + " 2>" +
                          e2e::q((dir / "err.txt").string());
  int status = std::system(cmd.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = e2e::slurp(dir / "out.txt");
  r.err = e2e::slurp(dir / "err.txt");
  return r;
}

}  // namespace

TEST_CASE("formats: summary --format markdown tells the JSON's counts in four tables") {
  auto dir = e2e::scratch("formats_summary");
  auto md = in_state(dir, "summary --format markdown " + e2e::q(kMultiRank));
  INFO(md.err);
  REQUIRE(md.exit_code == 0);
  CHECK(md.out.rfind("<!-- tlscope.summary.md/1 -->\n", 0) == 0);
  auto json = in_state(dir, "summary --format json " + e2e::q(kMultiRank));
  REQUIRE(json.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json.out);

  auto tables = checked_tables(md.out);
  REQUIRE(tables.size() == 4);
  CHECK(tables[0].rows.at(0).at(1) == "4 (0-3)");
  REQUIRE(tables[1].header.at(0) == "attempted");
  CHECK(tables[1].rows.at(0).at(0) ==
        std::to_string(int64_t(doc.at_pointer("/compiles/attempted"))));
  CHECK(tables[1].rows.at(0).at(5) == std::to_string(int64_t(doc["recompiles"])));
  CHECK(tables[2].rows.size() == simdjson::dom::array(doc["frames"]).size());
  CHECK(tables[3].rows.size() == simdjson::dom::array(doc["findings"]).size());
  CHECK(tables[3].rows.size() >= 2);  // the failure on ranks 0 and 2, the recompiles of 1 and 3
}

TEST_CASE("formats: compare and query markdown are well-formed tables") {
  auto dir = e2e::scratch("formats_compare_query");
  auto cmp = in_state(dir, "compare --format markdown " + e2e::q(e2e::kLogs + "/simple.log") + " " +
                               e2e::q(kMultiRank));
  INFO(cmp.err);
  REQUIRE(cmp.exit_code == 0);
  auto tables = checked_tables(cmp.out);
  REQUIRE(tables.size() == 2);
  CHECK(tables[0].header == std::vector<std::string>{"kind", "subject", "A", "B", "ranks"});
  CHECK_FALSE(tables[0].rows.empty());

  // A hostile cell through query: the pipe and the line break stay inside the cell.
  const std::string db = e2e::q((dir / "run.db").string());
  REQUIRE(in_state(dir, "ingest " + e2e::q(e2e::kLogs + "/simple.log") + " --db " + db).exit_code ==
          0);
  auto q = in_state(dir, "query " + db +
                             " \"SELECT 'a|b' || char(10) || '<i>' AS x, NULL AS y, 3 AS z\" "
                             "--format markdown");
  INFO(q.err);
  REQUIRE(q.exit_code == 0);
  tables = checked_tables(q.out);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].rows.at(0) == std::vector<std::string>{"a\\|b\\\\n\\<i\\>", "NULL", "3"});
}

TEST_CASE("formats: rage --commands lists the recorded commands as JSON and markdown") {
  auto dir = e2e::scratch("formats_rage_commands");
  REQUIRE(in_state(dir, "summary " + e2e::q(e2e::kLogs + "/simple.log")).exit_code == 0);
  REQUIRE(in_state(dir, "summary " + e2e::q((dir / "missing.log").string())).exit_code == 2);

  auto json = in_state(dir, "rage --commands --format json");
  INFO(json.err);
  REQUIRE(json.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json.out);
  CHECK(std::string_view(doc["schema"]) == "tlscope.commands/1");
  simdjson::dom::array commands = doc["commands"];
  REQUIRE(commands.size() == 2);
  // Newest first: the refused summary, then the one that worked.
  CHECK(int64_t(doc.at_pointer("/commands/0/exit_status")) == 2);
  CHECK(int64_t(doc.at_pointer("/commands/1/exit_status")) == 0);
  CHECK(std::string_view(doc.at_pointer("/commands/1/argv/1")) == "summary");
  CHECK(std::string_view(doc.at_pointer("/commands/1/state")) == "exited");

  auto md = in_state(dir, "rage --commands --format markdown");
  REQUIRE(md.exit_code == 0);
  auto tables = checked_tables(md.out);
  REQUIRE(tables.size() == 1);
  REQUIRE(tables[0].rows.size() == 2);
  CHECK(tables[0].rows[0].at(2) == "2");
  CHECK(tables[0].rows[1].at(4).find("tlscope summary") == 0);

  // --format names a listing's format: a bundle is refused it, with exit 2.
  auto bundle = in_state(dir, "rage --format json " + e2e::q(e2e::kLogs + "/simple.log"));
  CHECK(bundle.exit_code == 2);
  CHECK(bundle.err.find("--format applies to --commands only") != std::string::npos);
}
