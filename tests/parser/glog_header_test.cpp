// The glog prefix: fields, tlparse's unanchored matching, and lines that are not headers.
#include <catch2/catch.hpp>

#include "tlscope/parser/glog.hpp"

using namespace tlscope::parser;

TEST_CASE("glog header fields are read from a real trace line") {
  std::string line =
      "V1206 15:18:16.845000 1500233 torch/_dynamo/utils.py:1288] {\"chromium_event\": {}}";
  auto g = parse_glog_header(line);
  REQUIRE(g);
  CHECK(g->header.level == 'V');
  CHECK(g->header.month == 12);
  CHECK(g->header.day == 6);
  CHECK(g->header.hour == 15);
  CHECK(g->header.minute == 18);
  CHECK(g->header.second == 16);
  CHECK(g->header.microsecond == 845000);
  CHECK(g->header.thread == 1500233);
  CHECK(g->header.pathname == "torch/_dynamo/utils.py");
  CHECK(g->header.lineno == 1288);
  CHECK(line.substr(g->envelope_offset) == "{\"chromium_event\": {}}");
}

TEST_CASE("glog header skips a [rank0]: prefix like tlparse's unanchored regex") {
  std::string line = "[rank0]:I0822 14:00:48.899000 2354971 torch/_dynamo/utils.py:1946] {\"x\": 1}";
  auto g = parse_glog_header(line);
  REQUIRE(g);
  CHECK(g->header.level == 'I');
  CHECK(g->header.month == 8);
  CHECK(g->header.thread == 2354971);
  CHECK(line.substr(g->envelope_offset) == "{\"x\": 1}");
}

TEST_CASE("glog header keeps absolute pathnames and 2024-style thread ids") {
  std::string line =
      "V0211 16:42:23.802000 139877824898048 /data/users/x/torch/_inductor/codecache.py:77] {}";
  auto g = parse_glog_header(line);
  REQUIRE(g);
  CHECK(g->header.thread == 139877824898048ull);
  CHECK(g->header.pathname == "/data/users/x/torch/_inductor/codecache.py");
  CHECK(g->header.lineno == 77);
}

TEST_CASE("glog header rejects lines that are not headers") {
  // Each breaks one part of the pattern.
  const char* bad[] = {
      "",
      "hello world",
      "X1206 15:18:16.845000 1500233 torch/a.py:12] {}",   // level letter not in VIWEC
      "V126 15:18:16.845000 1500233 torch/a.py:12] {}",    // 3-digit date
      "V1206 15:18:16.84500 1500233 torch/a.py:12] {}",    // 5-digit fraction
      "V1206 15:18:16.845000 torch/a.py:12] {}",           // no PID
      "V1206 15:18:16.845000 1500233 torch/a.py] {}",      // no :lineno
      "V1206 15:18:16.845000 1500233 torch/a.py:12]",      // nothing after "] "
      "V1206 15:18:16.845000 1500233 torch/a.py:12 {}",    // no ']'
      "V1206 15:18:16.845000 1500233 C:/torch/a.py:12] {}",  // ':' inside the pathname
      "\t{\"name\": \"compile_file\"}",
  };
  for (const char* line : bad) {
    INFO(line);
    CHECK_FALSE(parse_glog_header(line));
  }
}
