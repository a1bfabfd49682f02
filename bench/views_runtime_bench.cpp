// The cost of views::CompileRuntimeReader (every compile's runtime metrics, autotune fields,
// kernels and links, read once per report and per viewer database): builds it --repeat times on a
// database and prints the CPU (user + sys, getrusage) and wall of each build, then what it read.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "bench_args.hpp"
#include "tlscope/views/compile_runtime.hpp"

using Clock = std::chrono::steady_clock;

static double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

int main(int argc, char** argv) {
  CLI::App app{"Time views::CompileRuntimeReader on a tlscope database"};
  std::string db_path;
  int repeat = 3;
  app.add_option("--db", db_path, "an ingested, analysed tlscope database")->required();
  app.add_option("--repeat", repeat, "builds of the reader (default 3)")->check(CLI::Range(1, 100));
  if (auto rc = tlscope::bench::parse_args(app, argc, argv)) return *rc;
  tlscope::views::Database db(db_path);
  if (!db.ok()) {
    std::fprintf(stderr, "views_runtime_bench: cannot open %s\n", db_path.c_str());
    return 2;
  }
  for (int i = 0; i < repeat; ++i) {
    double cpu0 = cpu_seconds();
    auto t0 = Clock::now();
    tlscope::views::CompileRuntimeReader reader(db);
    double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("CompileRuntimeReader: %.3f s CPU, %.3f s wall, %zu unattached links\n",
                cpu_seconds() - cpu0, wall, reader.unattached_links().size());
  }
  return 0;
}
