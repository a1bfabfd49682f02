// The view models of PyTorch 2.14's records (fixtures/torch214.log and the real
// subgraph_name.log): the run environment (version, config), records of unknown kinds, a
// compile's artifacts grouped by subgraph, its metrics fields kept whole and a compile without
// metrics flagged.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/compile_detail.hpp"
#include "tlscope/views/compile_row.hpp"
#include "tlscope/views/report_provenance.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/unknown_records.hpp"
#include "views/real_db.hpp"

namespace views = tlscope::views;

namespace {

std::string analysed_fixture(const std::string& name) {
  std::filesystem::path dir = tlscope::test::fresh_scratch("views-tests", name);
  std::string db = (dir / "run.db").string();
  auto ingested = tlscope::model::ingest(db, {std::string(TLSCOPE_FIXTURES) + "/torch214.log"});
  REQUIRE(ingested.problems.empty());
  auto analysis = tlscope::model::analysis::ensure_analysis(db);
  REQUIRE(analysis.ok);
  return db;
}

views::CompileDetail detail_of(const views::Database& db, const std::string& compile_id) {
  auto rows = views::load_compile_rows(db);
  REQUIRE(rows.ok());
  views::CompileDetailReader reader(db);
  for (const views::CompileRow& c : *rows) {
    if (c.compile_id != compile_id) continue;
    auto d = reader.read(c);
    REQUIRE(d.ok());
    return d.value;
  }
  FAIL("no compile " << compile_id);
  return {};
}

// "subgraph: name name ..." per subgraph, in the order the compile page shows them.
std::vector<std::string> subgraph_lines(const views::CompileDetail& d) {
  std::vector<std::string> out;
  for (const views::SubgraphPayloads& s : views::payloads_by_subgraph(d)) {
    std::string line = s.name + ":";
    for (size_t i : s.payloads) line += " " + d.payloads[i].title();
    out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("load_run_environment: the version, commit and config a log carries") {
  views::Database db(analysed_fixture("torch214_environment"));
  REQUIRE(db.ok());
  auto env = views::load_run_environment(db);
  REQUIRE(env.ok());
  CHECK(env->analysed);
  CHECK(env->torch_version == "2.14.0");
  CHECK(env->torch_commit == "4f2a9c1d7e3b5a6c8d9e0f1a2b3c4d5e6f7a8b9c");
  CHECK(env->torch_cuda_version == "12.8");
  CHECK(env->torch_versions == std::vector<std::string>{"2.14.0"});
  CHECK(views::torch_version_text(*env) == "2.14.0 (commit 4f2a9c1d7e3b)");
  CHECK(env->config.at("dynamo.cache_size_limit") == "8");
  CHECK(env->config.at("inductor.max_autotune") == "False");
  CHECK(env->config.at("compile.config_suppress_errors") == "False");
  CHECK(env->config_values.size() == 14);  // 7 dynamo, 4 inductor, 3 compile
  for (const views::ConfigValue& v : env->config_values) CHECK(v.other_values.empty());
  // The report's header reads the same.
  auto provenance = views::load_report_provenance(db, "", "");
  REQUIRE(provenance.ok());
  CHECK(provenance->pytorch_versions == std::vector<std::string>{"2.14.0"});
  CHECK(provenance->pytorch_commit == "4f2a9c1d7e3b5a6c8d9e0f1a2b3c4d5e6f7a8b9c");
}

TEST_CASE("load_run_environment: a log that does not say has no version") {
  views::Database db(
      tlscope::test::analysed_real_log("torch214_no_version", {"subgraph_name.log"}));
  REQUIRE(db.ok());
  auto env = views::load_run_environment(db);
  REQUIRE(env.ok());
  CHECK(env->analysed);
  CHECK(env->torch_version.empty());
  CHECK(views::torch_version_text(*env).empty());
  auto provenance = views::load_report_provenance(db, "", "");
  CHECK(provenance->pytorch_versions.empty());
}

TEST_CASE("load_run_environment: inputs that ran different versions and configs") {
  // simple.log names 2.6.0a0+giteece9ec in its fx_graph_runnable; the fixture 2.14.0.
  std::filesystem::path dir = tlscope::test::fresh_scratch("views-tests", "torch214_two_runs");
  std::string path = (dir / "run.db").string();
  auto ingested = tlscope::model::ingest(path, {std::string(TLSCOPE_SHARED_LOGS) + "/simple.log",
                                                std::string(TLSCOPE_FIXTURES) + "/torch214.log"});
  REQUIRE(ingested.problems.empty());
  REQUIRE(tlscope::model::analysis::ensure_analysis(path).ok);
  views::Database db(path);
  auto env = views::load_run_environment(db);
  REQUIRE(env.ok());
  CHECK(env->torch_version == "2.6.0a0+giteece9ec");
  CHECK(env->torch_version_source == "fx_graph_runnable");
  CHECK(env->torch_versions == std::vector<std::string>{"2.6.0a0+giteece9ec", "2.14.0"});
  // simple.log's dynamo_config says cache_size_limit 8 too; its specialize_int differs nowhere,
  // but keys only one input has are listed with that input's value alone.
  const auto& values = env->config_values;
  auto it = std::find_if(values.begin(), values.end(), [](const views::ConfigValue& v) {
    return v.scope == "dynamo" && v.key == "cache_size_limit";
  });
  REQUIRE(it != values.end());
  CHECK(it->value == "8");
  CHECK(it->other_values.empty());
}

TEST_CASE("unknown record kinds: counted by kind and listed with their payloads") {
  views::Database db(analysed_fixture("torch214_unknown"));
  auto summary = views::load_summary(db);
  REQUIRE(summary.ok());
  std::vector<std::string> kinds;
  for (const views::KindCount& k : views::unknown_kinds(summary->kinds))
    kinds.push_back(k.kind + " " + std::to_string(k.count));
  CHECK(kinds == std::vector<std::string>{"invented_kind_alpha 2", "invented_kind_beta 1"});
  auto records = views::load_unknown_records(db, views::Page{0, 2});
  REQUIRE(records.ok());
  CHECK(records->total == 3);
  REQUIRE(records->rows.size() == 2);
  CHECK(records->rows[0].kind == "invented_kind_alpha");
  CHECK(records->rows[0].compile_id == "0/0");
  CHECK(records->rows[0].payload == "alpha payload <one>");
  CHECK(records->rows[0].metadata == R"({"note": "first"})");
  CHECK(records->rows[1].compile_id.empty());
  auto rest = views::load_unknown_records(db, views::Page{2, 10});
  REQUIRE(rest->rows.size() == 1);
  CHECK(rest->rows[0].kind == "invented_kind_beta");
  CHECK(rest->rows[0].payload.empty());
}

TEST_CASE("a compile's page: artifacts grouped by subgraph, metrics kept whole") {
  views::Database db(analysed_fixture("torch214_compile_page"));
  views::CompileDetail d = detail_of(db, "0/0");
  CHECK(subgraph_lines(d) ==
        std::vector<std::string>{"repeated_subgraph0: fx_graph_runnable before_post_grad_graph",
                                 "partitioned_bw_subgraph_1_0: fx_graph_runnable"});
  std::vector<std::string> main_graph;
  for (const auto& p : d.payloads)
    if (p.subgraph.empty()) main_graph.push_back(p.title());
  // The invented kind's record with a payload is listed with its compile too.
  CHECK(main_graph == std::vector<std::string>{"dynamo_output_graph", "fx_graph_cache_miss",
                                               "step_ORIGINAL_BYTECODE", "step_MODIFIED_BYTECODE",
                                               "dynamo_cpp_guards_str", "invented_kind_alpha"});
  // The bytecode sits with the generated code.
  for (const auto& p : d.payloads)
    if (p.title().find("_BYTECODE") != std::string::npos)
      CHECK(p.section == views::PayloadSection::kCode);
  REQUIRE(d.metrics.size() == 1);
  const views::CompileMetrics& m = d.metrics[0];
  auto field = [&](const std::string& name) {
    for (const auto& f : m.more_fields)
      if (f.name == name) return f.value;
    return std::string("(absent)");
  };
  CHECK(field("guard_latency_us") == "14.5");
  CHECK(field("log_format_version") == "3");
  CHECK(field("structured_logging_overhead_s") == "0.012");
  CHECK(field("remote_cache_time_saved_s") == "1.75");
  CHECK(field("graph_node_shapes") == R"({"l_x_": [8, 4], "sin": [8, 4]})");
  CHECK(field("config_suppress_errors") == "False");
  CHECK(field("a_field_from_the_future") == "kept");
  CHECK(m.unknown_fields == std::vector<std::string>{"a_field_from_the_future"});
  CHECK(d.missing_metrics.empty());
  // The guard dump's closing line, beside the guards.
  CHECK(d.guard_latency == "14.50 us");
  CHECK(detail_of(db, "0/1").guard_latency == "14.5 us");  // no dump: the metrics field
  CHECK(detail_of(db, "1/0").missing_metrics ==
        "compile 1/0 has no compilation_metrics: its times are unknown");
}

TEST_CASE("subgraph_name.log: its artifacts under their subgraphs on compile 0/0") {
  views::Database db(
      tlscope::test::analysed_real_log("torch214_subgraph_page", {"subgraph_name.log"}));
  views::CompileDetail d = detail_of(db, "0/0");
  CHECK(subgraph_lines(d) == std::vector<std::string>{"repeated_subgraph0: fx_graph_runnable",
                                                      "partitioned_bw_subgraph_1_0: "
                                                      "fx_graph_runnable"});
  REQUIRE(d.payloads.size() == 3);
  CHECK(d.payloads[0].title() == "dynamo_output_graph");
  CHECK(d.payloads[0].subgraph.empty());
}
