// The torch.export screen over the real export.log: the data-dependent expression's provenance
// walked back through the expression_created records to the unbacked symbol, and the symbols'
// origins, as read off the log's lines (quoted). Also the screen of a log without export records.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tlscope/views/export_report.hpp"
#include "views/real_db.hpp"

using namespace tlscope::views;

TEST_CASE("Export screen of export.log: the issue's provenance reaches x.item()") {
  Database db(tlscope::test::analysed_real_log("export_report", {"export.log"}));
  REQUIRE(db.ok());
  auto loaded = load_export_report(db);
  INFO(loaded.error);
  REQUIRE(loaded.ok());
  const ExportReport& r = *loaded;
  REQUIRE(r.programs.size() == 1);  // line 60: exported_program with its payload
  CHECK(r.programs[0].line == 60);
  CHECK(r.programs[0].payload_id >= 0);
  CHECK(r.assumptions.size() == 7);  // the seven guard_added records
  REQUIRE(r.symbols.size() == 1);
  CHECK(r.symbols[0].symbol == "u0");
  REQUIRE(r.issues.size() == 1);
  const ExportIssue& i = r.issues[0];
  CHECK(i.kind == "data_dependent");
  CHECK(i.expr == "Eq((((-u0)//3)) + 5, 0)");
  CHECK(i.result == "False");
  CHECK(i.at.line == 279);
  CHECK(i.at.code == "return z[:a]");
  // expr_node_id 140538758781280 is line 47's eq; each step's argument_ids lead one line up
  // (46 int_floordiv, 45 sub, 44 add, 43 sub, 42 add at 272, 41 int_floordiv at 271, 40 neg at
  // 270) and line 40's argument 140536506030432 is line 28's create_unbacked_symbol u0.
  std::vector<std::string> steps;
  for (const ProvenanceStep& s : i.provenance)
    steps.push_back(std::to_string(s.depth) + " " + (s.method.empty() ? "symbol" : s.method) + " " +
                    s.result + " @" + std::to_string(s.at.line));
  CHECK(steps == std::vector<std::string>{
                     "0 eq Eq((((-u0)//3)) + 5, 0) @279", "1 int_floordiv (((-u0)//3)) + 5 @279",
                     "2 sub (((-u0)//3)) + 5 @279", "3 add (((-u0)//3)) + 6 @279",
                     "4 sub (((-u0)//3)) + 5 @279", "5 add (((-u0)//3)) + 5 @272",
                     "6 int_floordiv ((-u0)//3) @271", "7 neg -u0 @270", "8 symbol u0 @269"});
  REQUIRE_FALSE(i.provenance.empty());
  CHECK(i.provenance.back().origin.find("a = x.item()") != std::string::npos);
  REQUIRE(i.symbols.size() == 1);
  CHECK(i.symbols[0].unbacked);
  CHECK(i.symbols[0].at.line == 269);
  // Line 57's guard names s0, whose source only the record's symbol_to_sources gives; u1 has no
  // create_unbacked_symbol record in this log.
  const ExportIssue& g = r.assumptions[4];
  CHECK(g.expr == "(((-u1)//3)) + 5 < 2*s0");
  REQUIRE(g.symbols.size() == 2);
  CHECK_FALSE(g.symbols[0].created);
  CHECK(g.symbols[0].words() == "u1: no creation record in the log");
  CHECK(g.symbols[1].source == "L['args'][0][1].size()[0]");
}

TEST_CASE("Export screen of a torch.compile log is empty") {
  Database db(tlscope::test::analysed_real_log("export_report_simple", {"simple.log"}));
  REQUIRE(db.ok());
  auto loaded = load_export_report(db);
  REQUIRE(loaded.ok());
  CHECK(loaded->empty());
}

// The loader skips its reads when one query finds none of the rows it shows; each kind of row
// alone must still be shown (export.log with the others deleted), so none of them is overlooked.
TEST_CASE("Export screen: each kind of row alone is still read") {
  std::string path = tlscope::test::analysed_real_log("export_report_alone", {"export.log"});
  auto keep_only = [&](const std::string& kept) {
    std::string copy = path + "." + kept + ".db";
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(copy.c_str(), &db) == SQLITE_OK);
    for (const char* table : {"export_issues", "shape_guards", "shape_symbols",
                              "shape_specializations", "shape_expressions"})
      if (table != kept)
        REQUIRE(sqlite3_exec(db, std::string("DELETE FROM ").append(table).c_str(), nullptr,
                             nullptr, nullptr) == SQLITE_OK);
    if (kept != "events")
      REQUIRE(sqlite3_exec(db, "DELETE FROM events WHERE kind = 'exported_program'", nullptr,
                           nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    return copy;
  };
  SECTION("nothing kept: empty") {
    Database db(keep_only("none"));
    auto loaded = load_export_report(db);
    REQUIRE(loaded.ok());
    CHECK(loaded->empty());
  }
  SECTION("the exported program") {
    Database db(keep_only("events"));
    auto loaded = load_export_report(db);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->programs.size() == 1);
    CHECK(loaded->programs[0].line == 60);
  }
  SECTION("the guards") {
    Database db(keep_only("shape_guards"));
    auto loaded = load_export_report(db);
    REQUIRE(loaded.ok());
    CHECK(loaded->assumptions.size() == 7);
  }
  SECTION("the symbols") {
    Database db(keep_only("shape_symbols"));
    auto loaded = load_export_report(db);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->symbols.size() == 1);
    CHECK(loaded->symbols[0].symbol == "u0");
  }
  SECTION("the issue") {
    Database db(keep_only("export_issues"));
    auto loaded = load_export_report(db);
    REQUIRE(loaded.ok());
    REQUIRE(loaded->issues.size() == 1);
    CHECK(loaded->issues[0].kind == "data_dependent");
  }
}
