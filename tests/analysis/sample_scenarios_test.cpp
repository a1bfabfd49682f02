// Every scenario of the sample runtime, checked against its truth.json: the graph breaks (with
// file and line), recompiles (with the failed guard), failures, cache-limit hits, dynamic dims
// and each injected fault with its ranks must be found exactly, and nothing else reported.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>

#include "analysis/analysis_harness.hpp"
#include "analysis/findings_messages.hpp"

using tlscope::test::AnalyzedDb;

namespace {

namespace fs = std::filesystem;

std::string sample_binary() {
  return std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
}

// Runs a scenario into a fresh directory; returns the directory.
std::string run_sample(const std::string& label, const std::string& args) {
  INFO("needs " << sample_binary() << " (build the tlscope-sample target)");
  REQUIRE(fs::exists(sample_binary()));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / ("sample-" + label);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string cmd = sample_binary() + " " + args + " --out " + dir.string() + " > " +
                    (dir / "run.txt").string() + " 2>&1";
  int rc = std::system(cmd.c_str());
  INFO(cmd);
  REQUIRE(rc == 0);
  return dir.string();
}

std::string str(simdjson::dom::element e) {
  if (e.is_string()) return std::string(std::string_view(e.get_string().value()));
  if (e.is_int64()) return std::to_string(int64_t(e.get_int64().value()));
  if (e.is_null()) return "NULL";
  return simdjson::minify(e);
}

std::string field(simdjson::dom::object o, const char* key) {
  simdjson::dom::element e;
  if (o.at_key(key).get(e)) return "NULL";
  return str(e);
}

// Single-process logs carry no rank (truth.json says 0 there), so ranks are compared only for
// multi-rank scenarios.
bool g_multi = false;
std::string rank_of(simdjson::dom::object o) {
  return g_multi ? field(o, "rank") : "";
}

std::multiset<std::string> truth_rows(
    simdjson::dom::element truth, const char* section,
    const std::function<std::string(simdjson::dom::object)>& key) {
  std::multiset<std::string> out;
  simdjson::dom::array arr;
  if (truth[section].get(arr)) return out;
  for (simdjson::dom::element e : arr) out.insert(key(e.get_object().value()));
  return out;
}

std::multiset<std::string> db_rows(const AnalyzedDb& db, const std::string& sql) {
  auto v = db.rows(sql);
  return {v.begin(), v.end()};
}

// The common checks of every scenario.
void check_scenario(const std::string& label, const std::string& args) {
  std::string dir = run_sample(label, args);
  AnalyzedDb db("sample-" + label, {dir});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load(dir + "/truth.json").get(truth));
  std::string text = tlscope::test::findings_messages(db.db());
  INFO(label << "\n" << text);
  bool multi = int64_t(truth["ranks"].get_int64().value()) > 0;
  g_multi = multi;
  auto rank_sql = std::string(multi ? "COALESCE(rank, 'NULL')" : "''");
  CHECK(db_rows(db, "SELECT " + rank_sql +
                        " || '|' || compile_id || '|' || frame || '|' || "
                        "user_file || '|' || user_line || '|' || reason FROM graph_breaks") ==
        truth_rows(truth, "graph_breaks", [](simdjson::dom::object o) {
          return rank_of(o) + "|" + field(o, "compile_id") + "|" + field(o, "frame") + "|" +
                 field(o, "file") + "|" + field(o, "line") + "|" + field(o, "reason");
        }));
  CHECK(db_rows(db, "SELECT " + rank_sql +
                        " || '|' || compile_id || '|' || frame || '|' || "
                        "reason FROM recompiles") ==
        truth_rows(truth, "recompiles", [](simdjson::dom::object o) {
          return rank_of(o) + "|" + field(o, "compile_id") + "|" + field(o, "frame") + "|" +
                 field(o, "failed_guard");
        }));
  CHECK(db_rows(db, "SELECT " + rank_sql +
                        " || '|' || compile_id || '|' || frame || '|' || "
                        "fail_type || '|' || fail_reason FROM failures") ==
        truth_rows(truth, "failures", [](simdjson::dom::object o) {
          return rank_of(o) + "|" + field(o, "compile_id") + "|" + field(o, "frame") + "|" +
                 field(o, "fail_type") + "|" + field(o, "fail_reason");
        }));
  CHECK(db_rows(db, "SELECT " + rank_sql +
                        " || '|' || frame || '|' || compile_id FROM "
                        "cache_limit_hits") ==
        truth_rows(truth, "cache_limit", [](simdjson::dom::object o) {
          return rank_of(o) + "|" + field(o, "frame") + "|" + field(o, "compile_id");
        }));
  {
    auto t = truth_rows(truth, "dynamic_dims", [](simdjson::dom::object o) {
      return rank_of(o) + "|" + field(o, "frame") + "|" + field(o, "input") + "|" + field(o, "dim");
    });
    std::set<std::string> distinct(t.begin(), t.end());
    auto d = db_rows(db, "SELECT DISTINCT " + rank_sql +
                             " || '|' || frame || '|' || input || "
                             "'|' || dim FROM dynamic_dims");
    CHECK(std::set<std::string>(d.begin(), d.end()) == distinct);
  }
  // Faults: each is one finding with the same ranks, and each fault finding is a fault.
  {
    auto faults = truth_rows(truth, "faults", [&](simdjson::dom::object o) {
      std::string kind = field(o, "kind");
      if (kind == "missing") kind = "missing_collective";
      std::string key = kind + "|" + (multi ? field(o, "ranks") : "");
      if (kind == "desync" || kind == "missing_collective" || kind == "straggler")
        key += "|" + field(o, "pg_name") + "|" + field(o, "seq");
      if (kind == "desync" || kind == "missing_collective") key += "|" + field(o, "other_ranks");
      if (kind == "compile_failure") key += "|" + field(o, "compile_id");
      if (kind == "recompile_storm") key += "|" + field(o, "frame");
      return key;
    });
    std::string ranks = multi ? "ranks" : "''";
    auto found = db_rows(
        db,
        "SELECT kind || '|' || " + ranks +
            " || CASE "
            "WHEN kind IN ('desync', 'missing_collective') THEN '|' || pg_name || '|' || seq || "
            "'|' "
            "|| other_ranks WHEN kind = 'straggler' THEN '|' || pg_name || '|' || seq "
            "WHEN kind = 'compile_failure' THEN '|' || compile_id "
            "WHEN kind = 'recompile_storm' THEN '|' || frame ELSE '' END FROM findings WHERE kind "
            "IN "
            "('desync', 'missing_collective', 'straggler', 'compile_failure', 'recompile_storm')");
    CHECK(found == faults);
  }
  // Nothing else: no unreadable records, and differences between ranks only on faulty ranks.
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind NOT IN ('graph_break', 'recompile', "
                  "'compile_failure', 'cache_limit', 'recompile_storm', 'rank_divergence', "
                  "'desync', 'missing_collective', 'straggler', 'shape_specialized')") == "0");
  // A specialized dim is one finding per specialization of truth.json, and only then.
  CHECK(db_rows(db,
                "SELECT compile_id || '|' || json_extract(detail, '$.symbol') || '|' || "
                "json_extract(detail, '$.value') FROM findings WHERE kind = "
                "'shape_specialized'") ==
        truth_rows(truth, "specializations", [](simdjson::dom::object o) {
          return field(o, "compile_id") + "|" + field(o, "symbol") + "|" + field(o, "value");
        }));
  std::set<int64_t> fault_ranks;
  simdjson::dom::array faults;
  if (!truth["faults"].get(faults)) {
    for (simdjson::dom::element f : faults) {
      simdjson::dom::array rs;
      if (!f["ranks"].get(rs))
        for (simdjson::dom::element r : rs) fault_ranks.insert(int64_t(r.get_int64().value()));
    }
  }
  for (const std::string& ranks : db.rows("SELECT j.value FROM findings f, json_each(f.ranks) j "
                                          "WHERE f.kind = 'rank_divergence'")) {
    INFO("rank_divergence names rank " << ranks);
    CHECK(fault_ranks.count(std::stoll(ranks)) == 1);
  }
  // The collective records are all there.
  CHECK(db.scalar("SELECT count(*) FROM collectives") ==
        std::to_string(truth_rows(truth, "collectives", [](simdjson::dom::object) {
                         return std::string();
                       }).size()));
  // PyTorch 2.14's run records: every log names the version and commit truth.json has, and each
  // process's first metrics record its dynamo config.
  CHECK(db.scalar("SELECT count(DISTINCT file_id) FROM run_info WHERE key = 'torch_version'") ==
        db.scalar("SELECT count(*) FROM files"));
  CHECK(db_rows(db,
                "SELECT DISTINCT group_concat(value, '|') OVER (PARTITION BY file_id ORDER "
                "BY key DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM "
                "run_info WHERE key IN ('torch_version', 'torch_commit')") ==
        truth_rows(truth, "environment", [](simdjson::dom::object o) {
          return field(o, "torch_version") + "|" + field(o, "torch_commit");
        }));
  CHECK(db_rows(db, "SELECT " + rank_sql +
                        " || '|' || scope || '|' || key || '|' || value FROM run_config WHERE "
                        "scope = 'dynamo'") ==
        truth_rows(truth, "config", [](simdjson::dom::object o) {
          return rank_of(o) + "|" + field(o, "scope") + "|" + field(o, "key") + "|" +
                 field(o, "value");
        }));
}

}  // namespace

TEST_CASE("sample scenario mlp") {
  check_scenario("mlp", "mlp");
}
TEST_CASE("sample scenario graph-breaks") {
  check_scenario("graph-breaks", "graph-breaks");
}
TEST_CASE("sample scenario recompiles") {
  check_scenario("recompiles", "recompiles");
}
TEST_CASE("sample scenario dynamic-shapes") {
  check_scenario("dynamic-shapes", "dynamic-shapes");
}
TEST_CASE("sample scenario compile-failure") {
  check_scenario("compile-failure", "compile-failure");
}
TEST_CASE("sample scenario ddp") {
  check_scenario("ddp", "ddp");
}
TEST_CASE("sample scenario ddp-compiled") {
  check_scenario("ddp-compiled", "ddp-compiled");
}
TEST_CASE("sample scenario mesh-2d") {
  check_scenario("mesh-2d", "mesh-2d");
}
TEST_CASE("sample scenario desync (op)") {
  check_scenario("desync-op", "desync --desync-kind op");
}
TEST_CASE("sample scenario desync (shape)") {
  check_scenario("desync-shape", "desync --desync-kind shape");
}
TEST_CASE("sample scenario desync (dtype)") {
  check_scenario("desync-dtype", "desync --desync-kind dtype");
}
TEST_CASE("sample scenario desync (order)") {
  check_scenario("desync-order", "desync --desync-kind order");
}
TEST_CASE("sample scenario straggler") {
  check_scenario("straggler", "straggler");
}
TEST_CASE("sample scenario hang") {
  check_scenario("hang", "hang");
}
TEST_CASE("sample scenario shape-specialization") {
  check_scenario("shape-specialization", "shape-specialization");
}
