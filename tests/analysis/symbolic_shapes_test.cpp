// The symbolic-shapes analysis on the real torch.export log (export.log, facts read off its lines
// and quoted here) and on the sample runtime's shape-specialization scenario (against its
// truth.json): symbols, specializations, guards, expressions, export issues, their user frames
// and the shape_specialized finding; and the compile's runtime, autotuning and links view.
#include <simdjson.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "analysis/analysis_harness.hpp"
#include "analysis/findings_messages.hpp"
#include "common/scratch_files.hpp"
#include "tlscope/views/compile_runtime.hpp"
#include "tlscope/views/symbolic_shapes.hpp"

using tlscope::test::AnalyzedDb;

namespace {

namespace fs = std::filesystem;

std::string shared_log(const std::string& name) {
  return std::string(TLSCOPE_SHARED_LOGS) + "/" + name;
}

const std::string kTestFile = "/data/users/angelayi/pytorch/test/export/test_draft_export.py";

// Each test case runs the scenario into its own directory: ctest runs them in parallel, beside
// sample_scenarios_test.cpp's run of the same scenario (in test-analysis/sample-<scenario>).
std::string run_specialization_sample(const std::string& label) {
  std::string binary = std::string(TLSCOPE_BINARY_DIR) + "/samples/runtime/tlscope-sample";
  INFO("needs " << binary << " (build the tlscope-sample target)");
  REQUIRE(fs::exists(binary));
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis" / ("symbolic-" + label);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string cmd = binary + " shape-specialization --out " + dir.string() + " > " +
                    (dir / "run.txt").string() + " 2>&1";
  INFO(cmd);
  REQUIRE(std::system(cmd.c_str()) == 0);
  return dir.string();
}

std::string text(simdjson::dom::object o, const char* key) {
  simdjson::dom::element e;
  if (o.at_key(key).get(e)) return "NULL";
  if (e.is_string()) return std::string(std::string_view(e.get_string().value()));
  if (e.is_int64()) return std::to_string(int64_t(e.get_int64().value()));
  return simdjson::minify(e);
}

std::multiset<std::string> symbolic_truth_rows(
    simdjson::dom::element truth, const char* section,
    const std::function<std::string(simdjson::dom::object)>& f) {
  std::multiset<std::string> out;
  simdjson::dom::array arr;
  if (truth[section].get(arr)) return out;
  for (simdjson::dom::element e : arr) out.insert(f(e.get_object().value()));
  return out;
}

std::multiset<std::string> symbolic_db_rows(const AnalyzedDb& db, const std::string& sql) {
  auto v = db.rows(sql);
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("export.log: the unbacked symbol, guards and data-dependent expression, located") {
  AnalyzedDb db("export_shapes", {shared_log("export.log")});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  // Line 28: create_unbacked_symbol u0, node_id 140536506030432, vr [-int_oo, int_oo]; its
  // user_stack ends at test_draft_export.py:269 forward "a = x.item()". No compile id (export).
  CHECK(db.rows("SELECT symbol, unbacked, value_range, node_id, user_file, user_line, user_name, "
                "user_code, compile_id FROM shape_symbols") ==
        std::vector<std::string>{"u0|1|[-int_oo, int_oo]|140536506030432|" + kTestFile +
                                 "|269|forward|a = x.item()|NULL"});
  // Lines 37-38, 49, 56-59: seven guard_added records. They log no user_stack: the user frame is
  // the innermost test-file frame of their stack (276 torch._check_is_size(a), 277
  // torch._check(a < z.shape[0]), 279 return z[:a]), as frame_locals.loc confirms.
  CHECK(db.rows("SELECT kind, expr, symbols, user_line, user_code FROM shape_guards ORDER BY id") ==
        std::vector<std::string>{
            "guard_added|(((-u0)//3)) + 5 >= 0|[\"u0\"]|276|torch._check_is_size(a)",
            "guard_added|(((-u0)//3)) + 5 < 2*s0|[\"u0\",\"s0\"]|277|torch._check(a < z.shape[0])",
            "guard_added|Ne((((-u0)//3)) + 5, 0)|[\"u0\"]|279|return z[:a]",
            "guard_added|(((-u1)//3)) + 5 >= 0|[\"u1\"]|276|torch._check_is_size(a)",
            "guard_added|(((-u1)//3)) + 5 < 2*s0|[\"u1\",\"s0\"]|277|torch._check(a < z.shape[0])",
            "guard_added|Ne((((-u1)//3)) + 5, 0)|[\"u1\"]|279|return z[:a]",
            "guard_added|Ne((((-u1)//3)) + 5, 1)|[\"u1\"]|279|return z[:a]"});
  // Line 38: symbol_to_sources {"s0": "L['args'][0][1].size()[0]"}.
  CHECK(db.scalar("SELECT json_extract(sources, '$.s0') FROM shape_guards WHERE expr = "
                  "'(((-u0)//3)) + 5 < 2*s0'") == "L['args'][0][1].size()[0]");
  // Line 48: propagate_real_tensors_provenance of Eq((((-u0)//3)) + 5, 0), result False, node
  // 140538758781280, user frame 279 "return z[:a]", locals a and z.
  CHECK(db.rows("SELECT kind, expr, result, expr_node_id, user_line, user_code, "
                "json_extract(locals, '$.a') FROM export_issues") ==
        std::vector<std::string>{"data_dependent|Eq((((-u0)//3)) + 5, 0)|False|140538758781280|279|"
                                 "return z[:a]|(((-u0)//3)) + 5"});
  // Lines 40-47: eight expression_created records, the first neg(u0) at line 270 "a = -a".
  CHECK(db.scalar("SELECT count(*) FROM shape_expressions") == "8");
  CHECK(db.rows("SELECT method, result, argument_ids, user_line FROM shape_expressions "
                "ORDER BY id LIMIT 1") ==
        std::vector<std::string>{"neg|-u0|[140536506030432]|270"});
  // No symbol was specialized in this log.
  CHECK(db.scalar("SELECT count(*) FROM findings WHERE kind = 'shape_specialized'") == "0");
}

TEST_CASE("export.log twice in one file: a redeclared filename index names the latest file") {
  // Two processes' logs laid end to end (as the 1 GB benchmark log is): the second declares its
  // `str` index 0 (the test file in export.log, line 1) for another path. Each record's user frame
  // takes the name declared last before it, and each record keeps one user frame.
  const std::string first = tlscope::test::slurp(shared_log("export.log"));
  REQUIRE(first.find("{\"str\": [\"" + kTestFile + "\", 0]}") != std::string::npos);
  const std::string other = "/data/users/other/second_run.py";
  std::string second;
  std::istringstream lines(first);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("{\"str\": [") != std::string::npos) {
      const size_t at = line.find(kTestFile);
      if (at != std::string::npos) line.replace(at, kTestFile.size(), other);
    }
    second += line + "\n";
  }
  const fs::path dir = tlscope::test::fresh_scratch("test-analysis", "export_twice");
  tlscope::test::spit(dir / "export_twice.log", first + second);
  AnalyzedDb db("export_twice", {(dir / "export_twice.log").string()});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT user_file, user_line FROM shape_symbols ORDER BY id") ==
        std::vector<std::string>{kTestFile + "|269", other + "|269"});
  // Seven guards in each half (see the test above), each with the file of its own half.
  CHECK(db.rows("SELECT user_file, count(*) FROM shape_guards GROUP BY user_file ORDER BY "
                "min(id)") == std::vector<std::string>{kTestFile + "|7", other + "|7"});
  CHECK(db.scalar("SELECT count(*) FROM shape_expressions WHERE user_file = '" + other + "'") ==
        "8");
}

TEST_CASE("shape-specialization sample: specializations, symbols and guards match truth.json") {
  std::string dir = run_specialization_sample("shape-specialization");
  AnalyzedDb db("shape-specialization", {dir});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load(dir + "/truth.json").get(truth));
  auto specializations = symbolic_truth_rows(truth, "specializations", [](simdjson::dom::object o) {
    return text(o, "compile_id") + "|" + text(o, "symbol") + "|" + text(o, "value") + "|" +
           text(o, "source") + "|" + text(o, "reason") + "|" + text(o, "line");
  });
  REQUIRE(specializations.size() == 2);  // the scenario's two size changes
  CHECK(symbolic_db_rows(db,
                         "SELECT compile_id || '|' || symbol || '|' || value || '|' || "
                         "json_extract(sources, '$[0]') || '|' || reason || '|' || user_line "
                         "FROM shape_specializations") == specializations);
  // The user frame is the sample program's statement (its file and the text of the line).
  CHECK(db.scalar("SELECT count(*) FROM shape_specializations WHERE user_file LIKE "
                  "'%samples/programs/recompiles.cpp' AND user_code LIKE '%env.size(\"x\", 0)%'") ==
        "2");
  // Each created symbol is a dynamic dim of truth.json, with its hint.
  CHECK(
      symbolic_db_rows(db,
                       "SELECT compile_id || '|' || symbol || '|' || value || '|' || source || '|' "
                       "|| unbacked FROM shape_symbols") ==
      symbolic_truth_rows(truth, "dynamic_dims", [](simdjson::dom::object o) {
        return text(o, "compile_id") + "|" + text(o, "symbol") + "|" + text(o, "hint") + "|L['" +
               text(o, "input") + "'].size()[" + text(o, "dim") + "]|0";
      }));
  // The guard each specialization added.
  CHECK(symbolic_db_rows(db,
                         "SELECT compile_id || '|' || kind || '|' || expr || '|' || symbols FROM "
                         "shape_guards") ==
        symbolic_truth_rows(truth, "specializations", [](simdjson::dom::object o) {
          return text(o, "compile_id") + "|guard_added_fast|" + text(o, "guard") + "|[\"" +
                 text(o, "symbol") + "\"]";
        }));
  // One finding per specialization: its facts in columns, and a sentence saying what, where and
  // why.
  auto facts = db.rows(
      "SELECT compile_id || '|' || json_extract(detail, '$.symbol') || '|' || "
      "json_extract(detail, '$.value') || '|' || line FROM findings WHERE kind = "
      "'shape_specialized' ORDER BY id");
  REQUIRE(facts.size() == specializations.size());
  CHECK(facts[0] == "0/1|s0|6|97");
  std::vector<std::string> messages;
  for (const auto& f : tlscope::test::worded_findings(db.db()))
    if (f.facts.kind == "shape_specialized")
      messages.push_back(f.facts.compile_id + "|" + f.sentence);
  REQUIRE(messages.size() == specializations.size());
  CHECK_THAT(messages[0],
             Catch::Matches("0/1\\|s0 \\(L\\['x'\\]\\.size\\(\\)\\[0\\]\\) was specialized to 6 "
                            "at .*samples/programs/recompiles\\.cpp:97 because x\\.size\\(0\\) is "
                            "used as a Python int \\(compile 0/1\\)"));
  // The views see the same rows per compile.
  tlscope::views::Database vdb(dir + "/../shape-specialization.db");
  REQUIRE(vdb.ok());
  tlscope::views::CompileShapesReader reader(vdb);
  int64_t file_id = std::stoll(db.scalar("SELECT id FROM files"));
  auto shapes = reader.read(file_id, "0/2");
  INFO(shapes.error);
  REQUIRE(shapes.ok());
  REQUIRE(shapes->specializations.size() == 1);
  CHECK(shapes->specializations[0].value == "8");
  CHECK(shapes->specializations[0].sources == std::vector<std::string>{"L['x'].size()[0]"});
  CHECK(shapes->symbols.size() == 1);
  CHECK(shapes->guards.size() == 1);
  CHECK(reader.read(file_id, "0/0")->empty());  // the first compile was static
}

TEST_CASE("shape-specialization sample: runtime metrics, autotuned kernels and links per compile") {
  std::string dir = run_specialization_sample("shape-specialization-runtime");
  AnalyzedDb db("shape-specialization-runtime", {dir});
  REQUIRE(db.report().ok);
  simdjson::dom::parser parser;
  simdjson::dom::element truth;
  REQUIRE_FALSE(parser.load(dir + "/truth.json").get(truth));
  tlscope::views::Database vdb(dir + "/../shape-specialization-runtime.db");
  REQUIRE(vdb.ok());
  tlscope::views::CompileRuntimeReader reader(vdb);
  int64_t file_id = std::stoll(db.scalar("SELECT id FROM files"));
  auto field = [](const std::vector<tlscope::views::NamedValue>& fields, const std::string& name) {
    for (const auto& f : fields)
      if (f.name == name) return f.value;
    return std::string("(absent)");
  };
  std::multiset<std::string> seen_runtime, seen_kernels, seen_links;
  for (const std::string& cid : db.rows("SELECT compile_id FROM compiles ORDER BY id")) {
    auto rt = reader.read(file_id, cid);
    INFO(rt.error);
    REQUIRE(rt.ok());
    REQUIRE(rt->runtime.size() == 1);
    CHECK(rt->runtime[0].kind == "compilation_metrics_runtime");
    seen_runtime.insert(cid + "|" +
                        field(rt->runtime[0].fields, "runtime_triton_autotune_time_us") + "|" +
                        field(rt->autotune, "compile_time_autotune_time_us"));
    for (const auto& k : rt->kernels)
      seen_kernels.insert(cid + "|" + k.kernel + "|" + std::to_string(k.configs) + "|" +
                          k.cache_state);
    for (const auto& l : rt->links) seen_links.insert(cid + "|" + l.name + "|" + l.url);
  }
  CHECK(seen_runtime == symbolic_truth_rows(truth, "runtime", [](simdjson::dom::object o) {
          return text(o, "compile_id") + "|" + text(o, "runtime_triton_autotune_time_us") + "|" +
                 text(o, "compile_time_autotune_time_us");
        }));
  std::multiset<std::string> kernels;
  simdjson::dom::array tuned;
  REQUIRE_FALSE(truth["autotuning"].get(tuned));
  for (simdjson::dom::element t : tuned) {
    std::string cid = text(t.get_object().value(), "compile_id");
    simdjson::dom::array list;
    REQUIRE_FALSE(t["kernels"].get(list));
    for (simdjson::dom::element k : list)
      kernels.insert(cid + "|" + text(k.get_object().value(), "name") + "|" +
                     text(k.get_object().value(), "num_configs") + "|" +
                     text(k.get_object().value(), "autotune_cache_state"));
  }
  REQUIRE_FALSE(kernels.empty());
  CHECK(seen_kernels == kernels);
  CHECK(seen_links == symbolic_truth_rows(truth, "autotuning", [](simdjson::dom::object o) {
          return text(o, "compile_id") + "|" + text(o, "link_name") + "|" + text(o, "link_url");
        }));
  CHECK(reader.unattached_links().empty());
}

TEST_CASE("links.log: the link record belongs to its compile") {
  AnalyzedDb db("links_runtime", {shared_log("links.log")});
  REQUIRE(db.report().ok);
  // links.log line 20: {"link": {"name": "manifold_url", "url": "https://www.google.com"},
  // "frame_id": 0, "frame_compile_id": 0, "attempt": 0}
  tlscope::views::Database vdb(std::string(TLSCOPE_BINARY_DIR) + "/test-analysis/links_runtime.db");
  REQUIRE(vdb.ok());
  tlscope::views::CompileRuntimeReader reader(vdb);
  auto rt = reader.read(std::stoll(db.scalar("SELECT id FROM files")), "0/0");
  REQUIRE(rt.ok());
  REQUIRE(rt->links.size() == 1);
  CHECK(rt->links[0].name == "manifold_url");
  CHECK(rt->links[0].url == "https://www.google.com");
  CHECK(rt->runtime.empty());  // the log has no compilation_metrics_runtime record
}

TEST_CASE("export.log twice in one file, its filename index set anew: each record's own file") {
  // One file that logs export.log, then export.log again with its one `str` entry (line 1,
  // index 0) naming another file: the second run's records must resolve index 0 to the entry
  // logged last before them, the first run's to theirs (make_big_log's output repeats indexes
  // like this; a join on (file, index) alone matched both entries for every frame).
  std::ifstream in(shared_log("export.log"), std::ios::binary);
  REQUIRE(in);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string other = "/work/other/test_copy.py";
  std::string second = log;
  size_t at = second.find(kTestFile);
  REQUIRE(at != std::string::npos);
  REQUIRE(at < second.find('\n'));  // the str entry on line 1
  second.replace(at, kTestFile.size(), other);
  fs::path dir = fs::path(TLSCOPE_BINARY_DIR) / "test-analysis";
  fs::create_directories(dir);
  fs::path twice = dir / "export_twice.log";
  std::ofstream(twice, std::ios::binary) << log << second;

  AnalyzedDb db("export_twice", {twice.string()});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  // Line 28 of each copy: the unbacked symbol u0, user frame line 269 of its run's file.
  CHECK(db.rows("SELECT symbol, user_file, user_line FROM shape_symbols ORDER BY id") ==
        std::vector<std::string>{"u0|" + kTestFile + "|269", "u0|" + other + "|269"});
  // The seven guards of each run, each located in its own run's file.
  CHECK(db.rows("SELECT user_file, count(*) FROM shape_guards GROUP BY user_file ORDER BY "
                "min(id)") == std::vector<std::string>{kTestFile + "|7", other + "|7"});
}

TEST_CASE("symbolic shapes: the user frame of a record, by the stack rules") {
  // A hand-written log of one process: its `str` table names user code (train.py), the Python
  // standard library (not user code), a site-packages file (user code) and a torch file spelt
  // with a capital (LIKE's match ignores ASCII case). Each record is written to test one rule
  // of the choice (the user frame was picked by one SQL window query, now in C++).
  const std::string head = "V0211 16:42:20.580000 2313073 torch/_logging/_internal.py:1293] ";
  auto frame = [](int file, int line) {
    return "{\"line\": " + std::to_string(line) + ", \"name\": \"f" + std::to_string(line) +
           "\", \"filename\": " + std::to_string(file) +
           ", \"loc\": \"x = " + std::to_string(line) + "\"}";
  };
  std::string log;
  for (const char* entry :
       {"[\"/home/u/train.py\", 0]", "[\"/usr/lib/python3.10/unittest/main.py\", 1]",
        "[\"/opt/venv/lib/python3.10/site-packages/lib/foo.py\", 2]",
        "[\"/opt/venv/lib/python3.10/site-packages/Torch/_dynamo/x.py\", 3]"})
    log += head + "{\"str\": " + entry + "}\n";
  auto guard = [&](const std::string& expr, const std::string& stacks) {
    log += head + "{\"guard_added\": {\"expr\": \"" + expr + "\"" + stacks + "}}\n";
  };
  // The innermost user frame of user_stack (the torch frame after it is not user code).
  guard("g1", ", \"user_stack\": [" + frame(0, 10) + ", " + frame(3, 20) + "], \"stack\": [" +
                  frame(2, 21) + "]");
  // No user_stack: the innermost user frame of stack (site-packages counts, the stdlib not).
  guard("g2", ", \"stack\": [" + frame(0, 5) + ", " + frame(2, 7) + ", " + frame(1, 9) + "]");
  // No user frame in user_stack: a user frame of stack wins over user_stack's innermost.
  guard("g3", ", \"user_stack\": [" + frame(3, 30) + ", " + frame(1, 31) + "], \"stack\": [" +
                  frame(0, 40) + ", \"not a frame\"]");
  // No user frame anywhere: the innermost frame of user_stack.
  guard("g4", ", \"user_stack\": [" + frame(3, 50) + ", " + frame(1, 51) + "], \"stack\": [" +
                  frame(3, 52) + "]");
  // Only non-user frames in stack: no user frame at all.
  guard("g5", ", \"stack\": [" + frame(3, 53) + "]");
  // An index no `str` entry names: the frame is kept without a file.
  guard("g6", ", \"user_stack\": [" + frame(9, 60) + "]");
  // Index 0 declared again: the records after it name the new file.
  log += head + "{\"str\": [\"/home/u/other.py\", 0]}\n";
  guard("g7", ", \"user_stack\": [" + frame(0, 70) + "]");

  const fs::path dir = tlscope::test::fresh_scratch("test-analysis", "shape_user_frames");
  tlscope::test::spit(dir / "frames.log", log);
  AnalyzedDb db("shape_user_frames", {(dir / "frames.log").string()});
  INFO(db.report().error);
  REQUIRE(db.report().ok);
  CHECK(db.rows("SELECT expr, COALESCE(user_file, 'NULL'), COALESCE(user_line, 'NULL'), "
                "COALESCE(user_name, 'NULL'), COALESCE(user_code, 'NULL') FROM shape_guards "
                "ORDER BY id") ==
        std::vector<std::string>{
            "g1|/home/u/train.py|10|f10|x = 10",
            "g2|/opt/venv/lib/python3.10/site-packages/lib/foo.py|7|f7|x = 7",
            "g3|/home/u/train.py|40|f40|x = 40",
            "g4|/usr/lib/python3.10/unittest/main.py|51|f51|x = 51",
            "g5|NULL|NULL|NULL|NULL",
            "g6|NULL|60|f60|x = 60",
            "g7|/home/u/other.py|70|f70|x = 70",
        });
}
