// Parse-only throughput: every source through parse_source into a sink that only counts.
// Usage: parse_bench [--threads N] [--batch-mb N] [--repeat N] PATH...
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "tlscope/parser/reader.hpp"

namespace {

using namespace tlscope::parser;

class CountingSink final : public EventSink {
 public:
  uint64_t events = 0, errors = 0, payload_bytes = 0, md5_ok = 0;
  void on_source_begin(const SourceInfo&) override {}
  void on_event(const Event& e) override {
    ++events;
    payload_bytes += e.payload.size();
    md5_ok += e.md5 == Md5Status::kOk;
  }
  void on_error(const ParseError& e) override {
    if (++errors <= 5) std::fprintf(stderr, "  error: %s\n", e.reason.c_str());
  }
  void on_source_end(const SourceSummary&) override {}
};

double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  ReaderOptions options;
  int repeat = 3;
  std::vector<std::string> paths;
  double batch_mb = static_cast<double>(options.batch_bytes) / (1 << 20);
  CLI::App app{"Parse-only throughput of tlscope's reader"};
  app.add_option("--threads", options.threads, "Parsing threads (0: the default)");
  app.add_option("--batch-mb", batch_mb, "Batch size in MiB")->check(CLI::PositiveNumber);
  app.add_option("--repeat", repeat, "Runs; the best is reported")->check(CLI::Range(1, 1000));
  app.add_option("paths", paths, "Log files or directories of rank logs")->required();
  if (auto rc = tlscope::bench::parse_args(app, argc, argv)) return *rc;
  options.batch_bytes = static_cast<size_t>(batch_mb * (1 << 20));
  InputPlan plan = plan_inputs(paths);
  for (const auto& p : plan.problems) std::fprintf(stderr, "%s\n", p.c_str());
  if (plan.sources.empty()) {
    std::fprintf(stderr, "parse_bench: no readable input\n");
    return 2;
  }
  double best = 1e100, best_cpu = 0;
  uint64_t bytes = 0;
  CountingSink sink;
  for (int r = 0; r < repeat; ++r) {
    sink = CountingSink{};
    bytes = 0;
    auto t0 = std::chrono::steady_clock::now();
    double cpu0 = cpu_seconds();
    for (const SourceInfo& s : plan.sources) bytes += parse_source(s, sink, options).bytes;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = cpu_seconds() - cpu0;
    std::printf("run %d: %.3f s wall, %.3f s CPU\n", r + 1, secs, cpu);
    if (secs < best) best = secs, best_cpu = cpu;
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf(
      "sources %zu  bytes %llu  events %llu  errors %llu  payload bytes %llu  md5 ok %llu\n",
      plan.sources.size(), static_cast<unsigned long long>(bytes),
      static_cast<unsigned long long>(sink.events), static_cast<unsigned long long>(sink.errors),
      static_cast<unsigned long long>(sink.payload_bytes),
      static_cast<unsigned long long>(sink.md5_ok));
  std::printf("best of %d: %.3f s  %.0f MB/s  %.2f M events/s  peak RSS %.1f MiB\n", repeat, best,
              bytes / best / 1e6, sink.events / best / 1e6, ru.ru_maxrss / 1024.0);
  // The machine may be shared: CPU seconds show the cost independent of other load.
  std::printf("CPU: %.3f s (%.0f MB per CPU-second)\n", best_cpu, bytes / best_cpu / 1e6);
  return 0;
}
