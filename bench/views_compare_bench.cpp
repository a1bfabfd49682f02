// The cost of `tlscope compare` on two cached databases, without the process around it:
// opens both (as the command does) and runs views::compare_runs --repeat times, printing the
// CPU (user + sys) and wall of each run and the median wall, then how much it compared.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "tlscope/views/compare.hpp"

using Clock = std::chrono::steady_clock;

static double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

int main(int argc, char** argv) {
  CLI::App app{"Time views::compare_runs on two tlscope databases"};
  std::string a_path, b_path;
  int repeat = 5;
  app.add_option("--a", a_path, "run A: an ingested, analysed tlscope database")->required();
  app.add_option("--b", b_path, "run B: the same")->required();
  app.add_option("--repeat", repeat, "comparisons (default 5)")->check(CLI::Range(1, 100));
  if (auto rc = tlscope::bench::parse_args(app, argc, argv)) return *rc;
  std::vector<double> walls;
  size_t differences = 0, frames = 0;
  for (int i = 0; i < repeat; ++i) {
    double cpu0 = cpu_seconds();
    auto t0 = Clock::now();
    tlscope::views::Database a(a_path), b(b_path);
    if (!a.ok() || !b.ok()) {
      std::fprintf(stderr, "views_compare_bench: %s\n", (a.ok() ? b : a).error().c_str());
      return 2;
    }
    tlscope::views::Result<tlscope::views::Comparison> c = tlscope::views::compare_runs(a, b);
    double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!c.ok()) {
      std::fprintf(stderr, "views_compare_bench: %s\n", c.error.c_str());
      return 2;
    }
    walls.push_back(wall);
    differences = c->differences.size();
    frames = c->frames.size();
    std::printf("compare_runs: %.4f s CPU, %.4f s wall\n", cpu_seconds() - cpu0, wall);
  }
  std::sort(walls.begin(), walls.end());
  std::printf("median %.4f s wall; %zu frames, %zu differences\n", walls[walls.size() / 2], frames,
              differences);
  return 0;
}
