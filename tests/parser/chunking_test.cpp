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

ReaderOptions with_threads(unsigned threads) {
  ReaderOptions o;
  o.threads = threads;
  return o;
}

// Chunks and batches far smaller than any real log's records, so every boundary case occurs.
ReaderOptions tiny_chunks(unsigned threads) {
  ReaderOptions o = with_threads(threads);
  o.chunk_bytes = 1000;
  o.batch_bytes = 4096;
  return o;
}

}  // namespace

TEST_CASE("tiny chunks and two threads give the same results as one thread") {
  const ReaderOptions single = with_threads(1);
  const ReaderOptions tiny = tiny_chunks(2);
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

TEST_CASE("a run of bad lines across chunk boundaries is one error row") {
  // 400 lines of pasted text (about 20 KB) between two good records: with 4 KiB batches the
  // run spans several chunks, and must still come out as the one row a single chunk gives.
  std::string good = read_all(fixture("comp_failure.log"));
  size_t cut = good.find("\nV", 2000) + 1;  // just before a header line
  REQUIRE(cut > 1);
  std::string junk;
  for (int i = 0; i < 400; ++i) {
    junk += "Traceback line " + std::to_string(i) + ": not a glog header, just pasted text\n";
    if (i % 50 == 0) junk += "\tan indented continuation of it\n";  // TAB lines join the run
    if (i % 70 == 0) junk += "\n";                                  // blank lines do not end it
  }
  std::string text = good.substr(0, cut) + junk + good.substr(cut);
  TempDir dir("bad_run");
  std::string path = dir.file("run.log", text);

  uint64_t first_line = count_lines(good.substr(0, cut)) + 1;
  uint64_t junk_lines = count_lines(junk);
  uint64_t blank = 0;
  for (size_t i = 0; i + 1 < junk.size(); ++i) blank += junk[i] == '\n' && junk[i + 1] == '\n';

  KeepingSink whole = parse_file(path, with_threads(1));
  for (const ReaderOptions& options : {tiny_chunks(2), tiny_chunks(1)}) {
    KeepingSink got = parse_file(path, options);
    REQUIRE(got.errors.size() == 1);
    CHECK(got.errors[0].kind == ErrorKind::kBadHeader);
    CHECK(got.errors[0].line == first_line);
    CHECK(got.errors[0].line_count == junk_lines - blank);
    CHECK(got.errors[0].reason == path + ":" + std::to_string(first_line) +
                                      ": not a glog trace header line (" +
                                      std::to_string(junk_lines - blank) + " lines)");
    CHECK(got.errors[0].excerpt == "Traceback line 0: not a glog header, just pasted text");
    CHECK(got.summary.errors == 1);
    CHECK(got.summary.lines.error_lines == junk_lines - blank);
    CHECK(got.summary.lines.total_lines == count_lines(text));
    CHECK(lines_add_up(got.summary.lines));
    require_same(whole, got);
  }
}
