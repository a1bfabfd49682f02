// "-" reads standard input; gzip is recognised by its magic bytes whatever the name.
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <catch2/catch.hpp>

#include "parse_harness.hpp"

using namespace tlscope::parser;
using namespace tlscope::parser::test;

namespace {

// Parses "-" with `path` standing in for standard input.
KeepingSink parse_as_stdin(const std::string& path) {
  int saved = ::dup(0);
  int fd = ::open(path.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  ::dup2(fd, 0);
  ::close(fd);
  KeepingSink sink = parse_file("-");
  ::dup2(saved, 0);
  ::close(saved);
  return sink;
}

}  // namespace

TEST_CASE("stdin and gzip without a .gz name read like the plain file") {
  KeepingSink base = parse_file(fixture("links.log"));
  REQUIRE(base.events.size() == 12);  // header lines of links.log

  KeepingSink piped = parse_as_stdin(fixture("links.log"));
  CHECK(piped.errors.empty());
  CHECK(piped.kind_counts() == base.kind_counts());
  CHECK(piped.summary.content_hash == base.summary.content_hash);

  TempDir dir("stdin_gz");
  std::string text = read_all(fixture("links.log"));
  std::string gz_path = dir.path() + "/compressed.log";  // no .gz suffix on purpose
  gzFile gz = gzopen(gz_path.c_str(), "wb");
  REQUIRE(gz != nullptr);
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
  KeepingSink sniffed = parse_file(gz_path);
  CHECK(sniffed.errors.empty());
  CHECK(sniffed.kind_counts() == base.kind_counts());
  KeepingSink gz_stdin = parse_as_stdin(gz_path);
  CHECK(gz_stdin.errors.empty());
  CHECK(gz_stdin.summary.bytes == text.size());
  CHECK(gz_stdin.kind_counts() == base.kind_counts());
}

TEST_CASE("a plain log named .gz is read as the text it is, not refused as corrupt gzip") {
  KeepingSink base = parse_file(fixture("links.log"));
  TempDir dir("plain_gz");
  std::string path =
      dir.file("dedicated_log_torch_trace_rank_0.log.gz", read_all(fixture("links.log")));
  InputPlan plan = plan_inputs({path});
  REQUIRE(plan.sources.size() == 1);
  KeepingSink got;
  parse_source(plan.sources[0], got);
  // Read by its name it stopped at byte 0: "gzip data corrupt: incorrect header check".
  CHECK(got.errors.empty());
  CHECK(got.summary.completed);
  CHECK(got.kind_counts() == base.kind_counts());
  CHECK(got.summary.content_hash == base.summary.content_hash);
}
