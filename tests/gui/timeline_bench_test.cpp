// `tlscope gui --bench-timeline N` with a small N: the output has the promised shape (one figure
// per line ending in ms for each zoom level, then bytes per zone), and needs no window.
#include <catch2/catch.hpp>
#include <cstdio>
#include <regex>
#include <string>

#include "tlscope/gui/timeline_bench.hpp"

namespace {

std::string bench_output(size_t zones, int* rc) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  *rc = tlscope::gui::run_timeline_bench(zones, out);
  std::fclose(out);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

}  // namespace

TEST_CASE("the timeline bench prints the median and maximum per zoom level and bytes per zone") {
  int rc = -1;
  std::string out = bench_output(20000, &rc);
  INFO(out);
  CHECK(rc == 0);
  CHECK(out.find("zones: 20000 on 64 lanes\n") == 0);
  for (const char* zoom : {"whole range", "1/100", "1/10000"}) {
    for (const char* figure : {"median", "max"}) {
      std::regex line(std::string("\n") + zoom + " " + figure + ": [0-9]+\\.[0-9]{3} ms\n");
      CHECK(std::regex_search(out, line));
    }
  }
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("\nbytes per zone: ([0-9]+)\n$")));
  // The budget of the issue: at most 200 bytes per zone.
  CHECK(std::stoi(m[1]) <= 200);
  CHECK(std::stoi(m[1]) > 24);  // at least the zone record itself
}

TEST_CASE("the timeline bench refuses zero zones") {
  int rc = -1;
  std::string out = bench_output(0, &rc);
  CHECK(rc == 2);
  CHECK(out.find("at least one zone") != std::string::npos);
}
