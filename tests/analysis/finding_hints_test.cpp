// Every finding of the sample scenarios, as the front ends list it (views::load_findings): one
// line per fact (checked against truth.json) with what it means and what to try, a known cause
// from the table wherever the scenario injected one the table names, else the kind's own hint.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "analysis/analysis_harness.hpp"
#include "tlscope/views/finding_causes.hpp"
#include "tlscope/views/findings.hpp"

namespace {

namespace fs = std::filesystem;
using namespace tlscope::views;

struct Run {
  std::string dir;
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
};

void run_sample(Run& run, const std::string& label, const std::string& args) {
  const std::string sample = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  REQUIRE(fs::exists(sample));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / ("hints-" + label);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string cmd = sample + " " + args + " --out " + dir.string() + " > /dev/null 2>&1";
  INFO(cmd);
  REQUIRE(std::system(cmd.c_str()) == 0);
  run.dir = dir.string();
  REQUIRE_FALSE(run.parser.load((dir / "truth.json").string()).get(run.truth));
}

// Kinds whose table rows include patterns: a finding of them should name a known cause when the
// scenario's fault is one of those patterns (every scenario here injects such a fault).
bool has_patterns(std::string_view kind) {
  for (const FindingCause& c : kFindingCauses)
    if (c.kind == kind && !c.pattern.empty()) return true;
  return false;
}

const FindingCause* kind_row(std::string_view kind) {
  for (const FindingCause& c : kFindingCauses)
    if (c.kind == kind && c.pattern.empty()) return &c;
  return nullptr;
}

Findings findings_of(const Run& run, const std::string& label) {
  tlscope::test::AnalyzedDb db("hints-" + label, {run.dir});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  Database read(db.path());
  auto f = load_findings(read);
  INFO(f.error);
  REQUIRE(f.ok());
  return *f;
}

void check_hints(const Findings& f) {
  REQUIRE(f.total > 0);
  for (const FindingGroup& g : f.groups) {
    for (const FindingRow& row : g.rows) {
      INFO(row.kind << ": " << row.message << "\n  -> " << row.hint.line());
      CHECK_FALSE(row.hint.meaning.empty());
      CHECK_FALSE(row.hint.try_this.empty());
      if (has_patterns(row.kind)) {
        CHECK(row.hint.known_cause);
      } else {
        REQUIRE(kind_row(row.kind) != nullptr);
        CHECK(row.hint.meaning == kind_row(row.kind)->meaning);
      }
    }
  }
}

// truth.json's recompiles as facts: frame and failed guard with the numbers taken out (the
// scenarios' recurring guards differ only in numbers: "L['step'] == 3.0", "expected 4").
std::set<std::string> truth_recompile_facts(simdjson::dom::element truth, size_t& count) {
  std::set<std::string> facts;
  count = 0;
  simdjson::dom::array arr;
  if (truth["recompiles"].get(arr)) return facts;
  for (simdjson::dom::element e : arr) {
    std::string guard(std::string_view(e["failed_guard"].get_string().value()));
    std::string fact(std::string_view(e["frame"].get_string().value()));
    fact += ":";
    for (char c : guard)
      if (!(c >= '0' && c <= '9') && c != '.') fact += c;
    facts.insert(fact);
    ++count;
  }
  return facts;
}

const FindingGroup* group_of(const Findings& f, std::string_view kind) {
  for (const FindingGroup& g : f.groups)
    if (g.kind->kind == kind) return &g;
  return nullptr;
}

}  // namespace

TEST_CASE("hints: recompiles scenario, one line per recurring guard, each with its cause") {
  Run run;
  run_sample(run, "recompiles", "recompiles");
  Findings f = findings_of(run, "recompiles");
  check_hints(f);
  size_t truth_count = 0;
  std::set<std::string> facts = truth_recompile_facts(run.truth, truth_count);
  const FindingGroup* re = group_of(f, "recompile");
  REQUIRE(re);
  CHECK(re->occurrences == static_cast<int64_t>(truth_count));
  CHECK(re->count == static_cast<int64_t>(facts.size()));
  CHECK(re->count < re->occurrences);  // the storm's recompiles are one line
}

TEST_CASE("hints: graph-breaks, dynamic-shapes and compile-failure scenarios") {
  for (const char* scenario : {"graph-breaks", "dynamic-shapes", "compile-failure"}) {
    INFO(scenario);
    Run run;
    run_sample(run, scenario, scenario);
    Findings f = findings_of(run, scenario);
    check_hints(f);
    simdjson::dom::array breaks;
    if (!run.truth["graph_breaks"].get(breaks) && breaks.size() > 0) {
      const FindingGroup* gb = group_of(f, "graph_break");
      REQUIRE(gb);
      CHECK(gb->occurrences == static_cast<int64_t>(breaks.size()));
      // item() and print(): two causes, each with its own advice.
      std::set<std::string> advice;
      for (const FindingRow& row : gb->rows) advice.insert(row.hint.try_this);
      CHECK(advice.size() == 2);
    }
  }
}

TEST_CASE("hints: distributed faults name their ranks in ranges and say what to try") {
  for (const char* scenario : {"desync", "straggler", "hang"}) {
    INFO(scenario);
    Run run;
    run_sample(run, scenario, scenario);
    Findings f = findings_of(run, scenario);
    check_hints(f);
    CHECK(f.job_ranks == 4);
    // The fault's rank (truth.json) is named alone; the three others as one run with a count.
    simdjson::dom::array faults;
    REQUIRE_FALSE(run.truth["faults"].get(faults));
    for (simdjson::dom::element fault : faults) {
      int64_t rank = fault["ranks"].at(0).get_int64().value();
      std::vector<int64_t> others;
      for (int64_t r = 0; r < 4; ++r)
        if (r != rank) others.push_back(r);
      const FindingRow& first = f.groups.at(0).rows.at(0);
      INFO(first.message);
      CHECK(first.message.find("rank " + std::to_string(rank) + " ") != std::string::npos);
      CHECK(first.message.find(rank_words(others, 4)) != std::string::npos);
    }
  }
}

TEST_CASE("hints: a 64-rank desync is one short line naming the rank and the rest as a range") {
  Run run;
  run_sample(run, "desync-64", "desync --ranks 64 --steps 2");
  Findings f = findings_of(run, "desync-64");
  CHECK(f.job_ranks == 64);
  simdjson::dom::array faults;
  REQUIRE_FALSE(run.truth["faults"].get(faults));
  REQUIRE(faults.size() == 1);
  int64_t rank = faults.at(0)["ranks"].at(0).get_int64().value();
  std::vector<int64_t> others;
  for (int64_t r = 0; r < 64; ++r)
    if (r != rank) others.push_back(r);
  const FindingGroup* d = group_of(f, "desync");
  REQUIRE(d);
  REQUIRE(d->rows.size() == 1);
  const std::string& m = d->rows[0].message;
  INFO(m);
  CHECK(m.rfind("rank " + std::to_string(rank) + " issued ", 0) == 0);
  CHECK(m.find(" where " + rank_words(others, 64) + " issued ") != std::string::npos);
  CHECK(m.find("(63 of 64)") != std::string::npos);
  CHECK(m.size() < 140);
  CHECK(d->rows[0].hint.known_cause);
}
