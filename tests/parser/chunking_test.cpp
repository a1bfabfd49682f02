// Cutting input into chunks and parsing them on threads must not change any result.
#include <catch2/catch.hpp>

#include "parse_harness.hpp"

using namespace tlscope::parser;
using namespace tlscope::parser::test;

namespace {

void require_same(const KeepingSink& a, const KeepingSink& b) {
  REQUIRE(a.events.size() == b.events.size());
  for (size_t i = 0; i < a.events.size(); ++i) {
    const auto& x = a.events[i];
    const auto& y = b.events[i];
    REQUIRE(x.line == y.line);
    REQUIRE(x.byte_offset == y.byte_offset);
    REQUIRE(x.kind == y.kind);
    REQUIRE(x.metadata == y.metadata);
    REQUIRE(x.payload == y.payload);
    REQUIRE(x.md5 == y.md5);
    REQUIRE(x.rank == y.rank);
  }
  REQUIRE(a.errors.size() == b.errors.size());
  for (size_t i = 0; i < a.errors.size(); ++i) {
    CHECK(a.errors[i].kind == b.errors[i].kind);
    CHECK(a.errors[i].line == b.errors[i].line);
    CHECK(a.errors[i].line_count == b.errors[i].line_count);
  }
  const LineAccounting& l = a.summary.lines;
  const LineAccounting& m = b.summary.lines;
  CHECK(l.total_lines == m.total_lines);
  CHECK(l.envelope_lines == m.envelope_lines);
  CHECK(l.payload_lines == m.payload_lines);
  CHECK(l.blank_lines == m.blank_lines);
  CHECK(l.error_lines == m.error_lines);
  CHECK(a.summary.content_hash == b.summary.content_hash);
  CHECK(a.summary.bytes == b.summary.bytes);
}

}  // namespace

TEST_CASE("tiny chunks and two threads give the same results as one thread") {
  ReaderOptions single;
  single.threads = 1;
  ReaderOptions tiny;
  tiny.threads = 2;
  tiny.chunk_bytes = 1000;
  tiny.batch_bytes = 4096;
  ReaderOptions odd;
  odd.threads = 2;
  odd.chunk_bytes = 7;  // reads that split lines, CRLF pairs and UTF-8 anywhere
  odd.batch_bytes = 64;
  for (const char* name : {"multi_rank_logs/dedicated_log_torch_trace_rank_1.log",  // CRLF
                           "simple_corrupted_json.log", "export.log"}) {
    INFO(name);
    KeepingSink a = parse_file(shared_log(name), single);
    KeepingSink b = parse_file(shared_log(name), tiny);
    require_same(a, b);
    if (std::string(name) != "multi_rank_logs/dedicated_log_torch_trace_rank_1.log") {
      KeepingSink c = parse_file(shared_log(name), odd);
      require_same(a, c);
    }
  }
}

TEST_CASE("content hash depends on the bytes only") {
  KeepingSink a = parse_file(shared_log("simple.log"));
  KeepingSink b = parse_file(shared_log("simple_corrupted_json.log"));
  KeepingSink c = parse_file(fixture("comp_failure.log"));
  KeepingSink d = parse_file(shared_log("comp_failure.log"));
  CHECK(a.summary.content_hash != b.summary.content_hash);
  CHECK(c.summary.content_hash == d.summary.content_hash);
  CHECK(a.summary.content_hash != c.summary.content_hash);
}
