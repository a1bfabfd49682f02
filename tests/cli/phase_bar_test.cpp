// The summary's compile-time bar: segments by each phase's own time, costliest first, widths that
// fill the bar exactly, the rest as one `other` segment, and log text made terminal-safe.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "phase_bar.hpp"

using tlscope::cli::compile_phase_bar;
using tlscope::cli::compile_phase_segments;
using tlscope::views::PhaseTotal;

namespace {
PhaseTotal phase(const std::string& name, double self) {
  PhaseTotal p;
  p.name = name;
  p.self_seconds = self;
  p.seconds = self;
  return p;
}
}  // namespace

TEST_CASE("phase bar: self times by name, costliest first, widths filling the bar") {
  // inductor appears twice (two compiles, or two places in the tree): summed.
  std::vector<PhaseTotal> run = {phase("dynamo", 1.0), phase("inductor", 2.0),
                                 phase("inductor", 1.0), phase("aot", 4.0)};
  auto segments = compile_phase_segments(run, 16);
  REQUIRE(segments.size() == 3);
  CHECK(segments[0].name == "aot");
  CHECK(segments[0].mark == 'A');
  CHECK(segments[1].name == "inductor");
  CHECK(segments[1].seconds == 3.0);
  CHECK(segments[0].width == 8);  // 4 of 8 s
  CHECK(segments[1].width == 6);
  CHECK(segments[2].width == 2);
  auto lines = compile_phase_bar(run, 16);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "  [AAAAAAAABBBBBBCC]");
  CHECK(lines[1] == "   A aot 4.00 s (50%)  B inductor 3.00 s (38%)  C dynamo 1.00 s (12%)");
}

TEST_CASE("phase bar: past five phases the rest is one `.` segment, widths always add up") {
  std::vector<PhaseTotal> run;
  for (int i = 0; i < 9; ++i) run.push_back(phase(std::string(1, char('a' + i)), 1.0 + i * 0.37));
  auto segments = compile_phase_segments(run, 48);
  REQUIRE(segments.size() == 6);
  CHECK(segments.back().name == "other");
  CHECK(segments.back().mark == '.');
  CHECK(segments[4].mark == 'E');
  size_t width = 0;
  for (const auto& s : segments) width += s.width;
  CHECK(width == 48);
}

TEST_CASE("phase bar: no time, no bar, and hostile names and durations do not break it") {
  CHECK(compile_phase_bar({}).empty());
  CHECK(compile_phase_bar({phase("zero", 0.0)}).empty());
  std::vector<PhaseTotal> run = {phase("\x1b]0;owned\x07", 1.0), phase("nan", std::nan("")),
                                 phase("neg", -5.0)};
  auto lines = compile_phase_bar(run, 10);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "  [AAAAAAAAAA]");
  CHECK(lines[1].find('\x1b') == std::string::npos);
  CHECK(lines[1].find("nan") == std::string::npos);
}
