// `tlscope compare --format json` on the sample runtime's paired scenarios: it finds exactly the
// differences truth_diff.json lists (the ones the runtime made between the two runs) and nothing
// else; identical runs and runs that differ only in ids, pids and timestamps give none.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "e2e/e2e_support.hpp"

namespace {

const std::string kPairsSample =
    std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";

struct Reported {
  std::string kind, subject, a, b, text;
  bool matched = false;
};

std::string str(simdjson::dom::element e) {
  return e.is_null() ? "" : std::string(std::string_view(e));
}

}  // namespace

TEST_CASE("compare finds exactly each sample pair's truth_diff.json") {
  auto scenario =
      GENERATE(as<std::string>{}, "pair-identical", "pair-ids-shifted", "pair-graph-break",
               "pair-shape-recompile", "pair-dtype-guard", "pair-desync", "pair-moved-frame",
               "pair-straggler", "pair-warm-cache", "pair-grad-mode", "pair-dynamic-dim");
  INFO("scenario " << scenario);
  auto dir = e2e::scratch("compare_" + scenario);
  const e2e::fs::path out = dir / "logs";
  std::string cmd =
      e2e::q(kPairsSample) + " " + scenario + " --out " + e2e::q(out.string()) + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  auto r = e2e::run_tlscope(dir, "compare --format json " + e2e::q((out / "a").string()) + " " +
                                     e2e::q((out / "b").string()));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  simdjson::dom::parser parser, truth_parser;
  simdjson::dom::element doc = parser.parse(r.out);
  simdjson::dom::element truth = truth_parser.load((out / "truth_diff.json").string());
  CHECK(std::string_view(doc["schema"]) == "tlscope.compare/1");

  // The aligned compile rows, and each difference's rows into them (what the viewer marks): a
  // row lacks a side's compile exactly when its status says that side has none; a difference's
  // rows exist; the graph break B added sits on the compile of B that broke, tagged "+break".
  simdjson::dom::array compiles = doc["compiles"].get_array();
  for (simdjson::dom::element row : compiles) {
    const std::string status = str(row["status"]);
    CHECK((status == "only_b") == row["compile_a"].is_null());
    CHECK((status == "only_a") == row["compile_b"].is_null());
  }
  int break_rows = 0;
  for (simdjson::dom::element d : doc["differences"].get_array()) {
    for (int64_t r : d["compile_rows"].get_array()) {
      REQUIRE(r >= 0);
      REQUIRE(static_cast<size_t>(r) < compiles.size());
      if (str(d["kind"]) == "graph_break_added") {
        CHECK(str(d["tag"]) == "+break");
        simdjson::dom::element row = compiles.at(static_cast<size_t>(r));
        CHECK(!row["compile_b"].is_null());
        CHECK(str(row["subject"]).rfind("pair_forward ", 0) == 0);
        ++break_rows;
      }
    }
  }
  CHECK((break_rows > 0) == (scenario == "pair-graph-break"));

  std::vector<Reported> reported;
  for (simdjson::dom::element d : doc["differences"].get_array())
    reported.push_back(
        {str(d["kind"]), str(d["subject"]), str(d["a"]), str(d["b"]), str(d["text"])});
  for (simdjson::dom::element t : truth["differences"].get_array()) {
    const std::string kind = str(t["kind"]), subject = str(t["subject"]);
    std::string a, b;  // what A's and B's values hold, when truth_diff.json says
    if (auto v = t["a"]; !v.error()) a = std::string(std::string_view(v.value()));
    if (auto v = t["b"]; !v.error()) b = std::string(std::string_view(v.value()));
    INFO("expected " << kind << " of " << subject << " (a: " << a << ", b: " << b << ")");
    bool found = false;
    for (Reported& d : reported) {
      if (d.matched || d.kind != kind || d.subject.find(subject) == std::string::npos ||
          d.a.find(a) == std::string::npos || d.b.find(b) == std::string::npos)
        continue;
      d.matched = found = true;
      break;
    }
    CHECK(found);
  }
  for (const Reported& d : reported) {
    INFO("reported but not in truth_diff.json: " << d.kind << ": " << d.text);
    CHECK(d.matched);
  }
}
