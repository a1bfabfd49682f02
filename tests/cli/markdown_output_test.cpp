// `--format markdown` and rage --commands' JSON, as functions of their models: hostile log text
// stays inside its cell, every table is well formed, and the layouts are the documented ones
// (docs/json.md).
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <string>

#include "command_listing.hpp"
#include "common/markdown_tables.hpp"
#include "markdown_table.hpp"
#include "summary_markdown.hpp"

using tlscope::cli::markdown_text;
using tlscope::cli::MarkdownTable;
using tlscope::test::markdown_tables;

namespace {

// A function name a hostile log could carry: a cell break, markup, a line break, an escape.
const std::string kHostile = "f|g <b>x</b> *y* `z`\nnext\x1b[2J";

tlscope::views::RunSummary hostile_summary() {
  tlscope::views::RunSummary s;
  s.torch_version = "2.6.0";
  s.ranks = {0, 1, 2, 3, 5};
  s.compiles.attempted = 3;
  s.compiles.completed = 2;
  s.compiles.failed = 1;
  s.recompiles = 1;
  s.analysed = true;
  s.health.files = 5;
  tlscope::views::FrameSummary f;
  f.file = "/src/model.py";
  f.line = 12;
  f.function = kHostile;
  f.compiles = 3;
  f.completed = 2;
  f.failed = 1;
  f.recompile_reasons = {"x.size()[0] == 4", "a | b"};
  s.frames.push_back(f);
  tlscope::views::FindingSummary finding;
  finding.kind = "compile_failure";
  finding.severity = "error";
  finding.ranks = {0, 1, 2};
  finding.compile_id = "0/1";
  finding.text = "compile 0/1 failed:\nTraceback | <here>";
  s.findings.push_back(finding);
  return s;
}

}  // namespace

TEST_CASE("markdown text: cell breaks, markup and terminal controls are escaped") {
  CHECK(markdown_text("a|b") == "a\\|b");
  CHECK(markdown_text("<script>") == "\\<script\\>");
  CHECK(markdown_text("*bold* _it_ `code` ~s~ [l](u) &amp;") ==
        "\\*bold\\* \\_it\\_ \\`code\\` \\~s\\~ \\[l\\](u) \\&amp;");
  // A line break cannot end the row: it is shown as \n (its backslash escaped in turn).
  CHECK(markdown_text("one\ntwo") == "one\\\\ntwo");
  CHECK(markdown_text("\x1b[2J") == "\\\\x1b\\[2J");
  // Numbers, paths and versions read as they are.
  CHECK(markdown_text("/src/a-b.py:12 2.6.0") == "/src/a-b.py:12 2.6.0");
}

TEST_CASE("markdown table: header, separator, and every row the header's width") {
  MarkdownTable t({"a", "b", "c"});
  t.row({"1"});
  t.row({"1", "2", "3"});
  CHECK(t.text() == "| a | b | c |\n| --- | --- | --- |\n| 1 |  |  |\n| 1 | 2 | 3 |\n");
  auto tables = markdown_tables(t.text());
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].problem.empty());
  // The checker itself fails a ragged table.
  auto ragged = markdown_tables("| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n");
  REQUIRE(ragged.size() == 1);
  CHECK_FALSE(ragged[0].problem.empty());
}

TEST_CASE("summary markdown: the documented tables, hostile text inside its cells") {
  const std::string md = tlscope::cli::summary_markdown(hostile_summary(), "run|x.db");
  INFO(md);
  CHECK(md.rfind("<!-- tlscope.summary.md/1 -->\n## tlscope summary of run\\|x.db\n", 0) == 0);
  auto tables = markdown_tables(md);
  REQUIRE(tables.size() == 4);
  for (const auto& t : tables) CHECK(t.problem.empty());
  CHECK(tables[0].header ==
        std::vector<std::string>{"PyTorch", "ranks", "files", "incomplete files", "analysed"});
  CHECK(tables[0].rows.at(0) == std::vector<std::string>{"2.6.0", "5 (0-3, 5)", "5", "0", "yes"});
  CHECK(tables[1].rows.at(0) == std::vector<std::string>{"3", "2", "1", "0", "0", "1", "0", "0"});
  REQUIRE(tables[2].rows.size() == 1);
  CHECK(tables[2].rows[0][0] == markdown_text(kHostile));
  CHECK(tables[2].rows[0][6] == "x.size()\\[0\\] == 4; a \\| b");
  REQUIRE(tables[3].rows.size() == 1);
  CHECK(tables[3].rows[0] ==
        std::vector<std::string>{"compile\\_failure", "error", "0-2", "0/1",
                                 "compile 0/1 failed:\\\\nTraceback \\| \\<here\\>"});
  // No raw markup or control byte from the log reached the output.
  CHECK(md.find("<b>") == std::string::npos);
  CHECK(md.find('\x1b') == std::string::npos);
}

TEST_CASE("summary markdown: an empty or unanalysed run says so instead of an empty table") {
  tlscope::views::RunSummary s;
  std::string md = tlscope::cli::summary_markdown(s, "empty.db");
  CHECK(md.find("_No frames compiled._") != std::string::npos);
  CHECK(md.find("_Not analysed yet") != std::string::npos);
  CHECK(markdown_tables(md).size() == 2);
  s.analysed = true;
  CHECK(tlscope::cli::summary_markdown(s, "empty.db").find("_No findings._") != std::string::npos);
}

TEST_CASE("rage --commands: JSON and markdown of the recorded commands") {
  tlscope::command_log::CommandRecord done, died;
  done.id = "20261205T010203.000001Z-42";
  done.started_utc = "2026-12-05T01:02:03.000001Z";
  done.argv = {"/usr/bin/tlscope", "summary", "my run|x.log"};
  done.exit_status = 2;
  done.duration_s = 1.5;
  done.cwd = "/home/me";
  done.inputs = {"/home/me/my run|x.log"};
  died.id = "20261205T010000.000001Z-41";
  died.started_utc = "2026-12-05T01:00:00.000001Z";
  died.argv = {"tlscope", "ingest", "big.log"};
  std::vector<tlscope::cli::ListedCommand> listed = {{&done, "exited"}, {&died, "died"}};

  const std::string json = tlscope::cli::commands_json("/state/tlscope", listed, {"bad line"});
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json);
  CHECK(std::string_view(doc["schema"]) == "tlscope.commands/1");
  CHECK(std::string_view(doc["log"]) == "/state/tlscope");
  simdjson::dom::array commands = doc["commands"];
  REQUIRE(commands.size() == 2);
  CHECK(int64_t(doc.at_pointer("/commands/0/k")) == 0);
  CHECK(int64_t(doc.at_pointer("/commands/0/exit_status")) == 2);
  CHECK(double(doc.at_pointer("/commands/0/seconds")) == 1.5);
  CHECK(std::string_view(doc.at_pointer("/commands/0/argv/2")) == "my run|x.log");
  CHECK(std::string_view(doc.at_pointer("/commands/0/state")) == "exited");
  CHECK(doc.at_pointer("/commands/0/database").is_null());
  CHECK(std::string_view(doc.at_pointer("/commands/1/state")) == "died");
  CHECK(doc.at_pointer("/commands/1/exit_status").is_null());
  CHECK(doc.at_pointer("/commands/1/seconds").is_null());
  CHECK(std::string_view(doc.at_pointer("/problems/0")) == "bad line");

  const std::string md = tlscope::cli::commands_markdown("/state/tlscope", listed);
  INFO(md);
  CHECK(md.rfind("<!-- tlscope.commands.md/1 -->\n", 0) == 0);
  auto tables = markdown_tables(md);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].problem.empty());
  CHECK(tables[0].header ==
        std::vector<std::string>{"K", "started (UTC)", "exit", "seconds", "command"});
  REQUIRE(tables[0].rows.size() == 2);
  CHECK(tables[0].rows[0] == std::vector<std::string>{"0", "2026-12-05T01:02:03.000001Z", "2",
                                                      "1.50", "tlscope summary 'my run\\|x.log'"});
  CHECK(tables[0].rows[1][2] == "died");
  CHECK(tlscope::cli::commands_markdown("/s", {}).find("_No recorded commands._") !=
        std::string::npos);
}
