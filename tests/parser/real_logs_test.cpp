// Every real PyTorch log: event counts per kind and line accounting against counts taken here
// independently with plain string scanning.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>

#include "parse_harness.hpp"

using namespace tlscope::parser;
using namespace tlscope::parser::test;

namespace {

struct IndependentCounts {
  std::map<std::string, int> kinds;  // key after `] {"` on each header line
  uint64_t headers = 0, tab_lines = 0, blank_lines = 0;
};

IndependentCounts scan(const std::string& text) {
  IndependentCounts c;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      c.blank_lines++;
    } else if (line[0] == '\t') {
      c.tab_lines++;
    } else {
      c.headers++;
      size_t k = line.find("] {\"");
      if (k != std::string::npos) {
        size_t end = line.find('"', k + 4);
        c.kinds[line.substr(k + 4, end - (k + 4))]++;
      }
    }
    pos = nl + 1;
  }
  return c;
}

std::vector<std::string> real_logs() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(TLSCOPE_SHARED_LOGS)) {
    if (e.is_regular_file() && e.path().extension() == ".log") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// MD5 mismatches in the real logs, found with Python's hashlib (hand-edited tlparse fixtures).
int expected_md5_errors(const std::string& path) {
  for (const char* name : {"/export.log", "/simple_corrupted_json.log",
                           "/dedicated_log_torch_trace_rank_1_n8zycf07.log"}) {
    if (path.size() > std::strlen(name) && path.substr(path.size() - std::strlen(name)) == name) {
      return 1;
    }
  }
  return 0;
}

}  // namespace

TEST_CASE("every real log: events per kind and line accounting match an independent scan") {
  auto files = real_logs();
  REQUIRE(files.size() == 17);  // subgraph_name.log and vllm_post_grad_diff.log are new
  for (const std::string& path : files) {
    INFO(path);
    std::string text = read_all(path);
    IndependentCounts want = scan(text);
    KeepingSink got = parse_file(path);
    CHECK(got.begins == 1);
    CHECK(got.ends == 1);
    CHECK(got.kind_counts() == want.kinds);
    CHECK(got.events.size() == want.headers);
    const LineAccounting& l = got.summary.lines;
    CHECK(l.total_lines == count_lines(text));
    CHECK(l.envelope_lines == want.headers);
    CHECK(l.payload_lines == want.tab_lines);
    CHECK(l.blank_lines == want.blank_lines);
    CHECK(l.error_lines == 0);
    CHECK(lines_add_up(l));
    CHECK(got.summary.bytes == text.size());
    CHECK(got.summary.completed);
    CHECK(got.summary.events == got.events.size());
    CHECK(got.errors.size() == static_cast<size_t>(expected_md5_errors(path)));
    for (const auto& e : got.errors) {
      CHECK(e.kind == ErrorKind::kMd5Mismatch);
      CHECK(e.line_count == 0);
      CHECK(e.reason.find(path + ":" + std::to_string(e.line) + ":") == 0);
    }
  }
}

TEST_CASE("the CRLF log (multi_rank_logs rank 1) parses with no errors and no stray CRs") {
  std::string path = shared_log("multi_rank_logs/dedicated_log_torch_trace_rank_1.log");
  std::string text = read_all(path);
  REQUIRE(text.find("\r\n") != std::string::npos);
  KeepingSink got = parse_file(path);
  CHECK(got.errors.empty());
  REQUIRE(got.events.size() > 500);
  size_t with_payload = 0;
  for (const auto& e : got.events) {
    CHECK(e.payload.find('\r') == std::string::npos);
    CHECK(e.envelope.find('\r') == std::string::npos);
    if (e.md5 == Md5Status::kOk) ++with_payload;
    CHECK(e.md5 != Md5Status::kMismatch);
  }
  CHECK(with_payload > 0);
}

TEST_CASE("simple_corrupted_json.log: exactly the damaged record is reported, the rest intact") {
  std::string good_text = read_all(shared_log("simple.log"));
  std::string bad_text = read_all(shared_log("simple_corrupted_json.log"));
  // Find the first differing line, then the header line of the record it belongs to.
  std::istringstream g(good_text), b(bad_text);
  std::vector<std::string> bad_lines;
  std::string gl, bl;
  uint64_t first_diff = 0;
  while (std::getline(b, bl)) {
    bad_lines.push_back(bl);
    if (!std::getline(g, gl)) gl.clear();
    if (first_diff == 0 && gl != bl) first_diff = bad_lines.size();
  }
  REQUIRE(first_diff > 0);
  uint64_t damaged = first_diff;
  while (damaged > 1 && bad_lines[damaged - 1][0] == '\t') --damaged;

  KeepingSink good = parse_file(shared_log("simple.log"));
  KeepingSink bad = parse_file(shared_log("simple_corrupted_json.log"));
  REQUIRE(bad.errors.size() == 1);
  CHECK(bad.errors[0].kind == ErrorKind::kMd5Mismatch);
  CHECK(bad.errors[0].line == damaged);
  CHECK(bad.errors[0].reason.find("simple_corrupted_json.log:" + std::to_string(damaged)) !=
        std::string::npos);
  REQUIRE(good.events.size() == bad.events.size());
  int differing = 0;
  for (size_t i = 0; i < good.events.size(); ++i) {
    const auto& x = good.events[i];
    const auto& y = bad.events[i];
    CHECK(x.kind == y.kind);
    CHECK(x.metadata == y.metadata);
    CHECK(x.line == y.line + (y.line > damaged ? 1 : 0));
    if (x.payload != y.payload || x.md5 != y.md5) {
      ++differing;
      CHECK(y.line == damaged);
      CHECK(y.md5 == Md5Status::kMismatch);
    }
  }
  CHECK(differing == 1);
}

TEST_CASE("context fields, ranks and payloads of real records") {
  // comp_failure.log: a compile that fails.
  KeepingSink got = parse_file(fixture("comp_failure.log"));
  REQUIRE(got.errors.empty());
  bool saw_metrics = false;
  for (const auto& e : got.events) {
    if (e.kind == "compilation_metrics") {
      saw_metrics = true;
      CHECK(e.metadata.find("\"fail_type\": \"BackendCompilerFailed\"") != std::string::npos);
      CHECK(e.metadata.front() == '{');
      CHECK(e.metadata.back() == '}');
      CHECK(e.context.frame_id == 0);
      CHECK(e.context.frame_compile_id == 0);
      CHECK(e.context.attempt == 0);
    }
    if (e.kind == "dynamo_start") CHECK(e.metadata.find("\"stack\": [") == 1);
  }
  CHECK(saw_metrics);

  // multi_rank_schedule/..._rank_2.log is a copy of rank 0's log: its envelopes say rank 0 (159
  // header lines carry "rank": 0, counted with grep) while its file name says 2.
  std::string path = shared_log("multi_rank_schedule/dedicated_log_torch_trace_rank_2.log");
  CHECK(rank_from_filename(path) == 2);
  KeepingSink ranked = parse_file(path);
  int rank0 = 0;
  for (const auto& e : ranked.events) {
    if (e.kind == "str") {
      CHECK_FALSE(e.rank);
    } else {
      rank0 += e.rank == 0;
    }
  }
  CHECK(rank0 == 159);

  // export.log: 18 envelopes carry a top-level "stack" instead of compile ids (Python's json).
  KeepingSink exported = parse_file(shared_log("export.log"));
  int with_stack = 0;
  for (const auto& e : exported.events) {
    if (e.stack.empty()) continue;
    ++with_stack;
    CHECK(e.stack.front() == '[');
    CHECK(e.stack.back() == ']');
    CHECK_FALSE(e.context.frame_id);
  }
  CHECK(with_stack == 18);
}
