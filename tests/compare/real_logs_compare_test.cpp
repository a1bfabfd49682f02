// `tlscope compare` on real PyTorch logs: the differences docs/compare.md explains, one by one.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "e2e/e2e_support.hpp"

namespace {

struct Diff {
  std::string kind, subject, a, b, text;
  std::vector<int64_t> ranks;
};

std::string opt(simdjson::dom::element e) {
  return e.is_null() ? "(null)" : std::string(std::string_view(e));
}

std::vector<Diff> differences(const std::string& name, const std::string& a, const std::string& b,
                              std::string& json) {
  auto dir = e2e::scratch("real_compare_" + name);
  auto r = e2e::run_tlscope(dir, "compare --format json " + e2e::q(a) + " " + e2e::q(b));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  json = r.out;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(r.out);
  std::vector<Diff> out;
  for (simdjson::dom::element d : doc["differences"].get_array()) {
    Diff& x = out.emplace_back();
    x.kind = opt(d["kind"]);
    x.subject = opt(d["subject"]);
    x.a = opt(d["a"]);
    x.b = opt(d["b"]);
    x.text = opt(d["text"]);
    for (simdjson::dom::element r : d["ranks"].get_array()) x.ranks.push_back(int64_t(r));
  }
  return out;
}

}  // namespace

TEST_CASE("compare comp_failure.log with simple.log: two different test functions") {
  std::string json;
  auto d = differences("failure_simple", e2e::kLogs + "/comp_failure.log",
                       e2e::kLogs + "/simple.log", json);
  // In kDifferenceKinds order: frame_added, frame_removed, then the config that differs.
  REQUIRE(d.size() == 4);
  CHECK(d[1].kind == "frame_removed");
  CHECK(d[1].subject == "fn (/data/users/xmfan/a/pytorch/test/dynamo/test_misc.py:10755)");
  // The failure test runs with suppress_errors (its dynamo_config says True, simple.log False);
  // dynamo's allowed_functions_module_string_ignorelist is the same set in another order, no
  // difference.
  CHECK(d[2].kind == "config_changed");
  CHECK(d[2].subject == "compile.config_suppress_errors");
  CHECK(d[3].subject == "dynamo.suppress_errors");
  CHECK(d[3].a == "True");
  CHECK(d[3].b == "False");
  CHECK(d[1].a == "1 compile(s), 1 failed");
  CHECK(d[0].kind == "frame_added");
  CHECK(d[0].subject ==
        "forward (/data/users/xmfan/a/pytorch/test/inductor/test_torchinductor.py:11123)");
  CHECK(d[0].b == "1 compile(s)");
  // Only simple.log states its PyTorch version (its fx_graph_runnable): no version difference,
  // but a note that an upgrade cannot be ruled out.
  CHECK(json.find("\"torch_version\": null") != std::string::npos);
  CHECK(json.find("\"torch_version\": \"2.6.0a0+giteece9ec\"") != std::string::npos);
  CHECK(json.find("A's log does not state its PyTorch version") != std::string::npos);
}

TEST_CASE("compare multi_rank_logs rank 0 with rank 1: B's rank stands in for A's") {
  const std::string dir = e2e::kLogs + "/multi_rank_logs/dedicated_log_torch_trace_rank_";
  std::string json;
  auto d = differences("rank0_rank1", dir + "0.log", dir + "1.log", json);
  // frame_added, frame_removed, then four config values: rank 1's gen_many_frames.py runs
  // without automatic dynamic shapes (its dynamo_config: False; rank 0's True).
  REQUIRE(d.size() == 6);
  CHECK(d[1].kind == "frame_removed");
  CHECK(d[1].subject.rfind("fn (", 0) == 0);
  CHECK(d[4].subject == "dynamo.automatic_dynamic_shapes");
  CHECK(d[4].a == "True");
  CHECK(d[4].b == "False");
  CHECK(d[1].a == "1 compile(s), 1 failed");
  CHECK(d[1].ranks == std::vector<int64_t>{0});
  CHECK(d[0].kind == "frame_added");
  CHECK(d[0].subject == "kernel (/Users/skarjala/Desktop/tlparse/tests/gen_many_frames.py:6)");
  CHECK(d[0].b == "15 compile(s)");
  CHECK(json.find("B's rank 1 is compared with A's rank 0") != std::string::npos);
}

TEST_CASE("compare multi_rank_logs rank 1 with rank 3: 8 recompiles only rank 1 made") {
  const std::string dir = e2e::kLogs + "/multi_rank_logs/dedicated_log_torch_trace_rank_";
  std::string json;
  auto d = differences("rank3_rank1", dir + "3.log", dir + "1.log", json);
  // Both recompile `kernel` on growing sizes; rank 1 went on for 0/7..0/14.
  int64_t added = 0;
  for (const Diff& x : d) {
    INFO(x.kind << " " << x.subject << " " << x.b);
    if (x.kind == "recompile_added") {
      ++added;
      CHECK(x.b.find("tensor 'x' size mismatch at index 0") != std::string::npos);
      // Each extra compile's time is in its sentence (the log measured every one).
      CHECK(x.text.find(" s compiling") != std::string::npos);
    }
  }
  CHECK(added == 8);
}

TEST_CASE("compare's verdict folds one frame's recompiles into one line") {
  const std::string dir = e2e::kLogs + "/multi_rank_logs/dedicated_log_torch_trace_rank_";
  auto scratch = e2e::scratch("real_compare_verdict");
  auto r =
      e2e::run_tlscope(scratch, "compare " + e2e::q(dir + "3.log") + " " + e2e::q(dir + "1.log"));
  REQUIRE(r.exit_code == 0);
  // The verdict is the lines between the header and the first section.
  const size_t start = r.out.find("\n\n") + 2, end = r.out.find("\n\n", start);
  const std::string verdict = r.out.substr(start, end - start);
  INFO(verdict);
  CHECK(verdict.rfind("8 like this in kernel", 0) == 0);
  CHECK(verdict.find("s compiling in all") != std::string::npos);
}
