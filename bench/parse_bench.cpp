// Parse-only throughput: every source through parse_source into a sink that only counts.
// Usage: parse_bench [--threads N] [--batch-mb N] [--repeat N] PATH...
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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

}  // namespace

int main(int argc, char** argv) {
  ReaderOptions options;
  int repeat = 3;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      options.threads = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--batch-mb") && i + 1 < argc) {
      options.batch_bytes = static_cast<size_t>(std::atof(argv[++i]) * (1 << 20));
    } else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else {
      paths.push_back(argv[i]);
    }
  }
  InputPlan plan = plan_inputs(paths);
  for (const auto& p : plan.problems) std::fprintf(stderr, "%s\n", p.c_str());
  if (plan.sources.empty()) {
    std::fprintf(stderr, "usage: parse_bench [--threads N] [--batch-mb N] [--repeat N] PATH...\n");
    return 2;
  }
  double best = 1e100;
  uint64_t bytes = 0;
  CountingSink sink;
  for (int r = 0; r < repeat; ++r) {
    sink = CountingSink{};
    bytes = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (const SourceInfo& s : plan.sources) bytes += parse_source(s, sink, options).bytes;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("run %d: %.3f s\n", r + 1, secs);
    if (secs < best) best = secs;
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("sources %zu  bytes %llu  events %llu  errors %llu  payload bytes %llu  md5 ok %llu\n",
              plan.sources.size(), static_cast<unsigned long long>(bytes),
              static_cast<unsigned long long>(sink.events),
              static_cast<unsigned long long>(sink.errors),
              static_cast<unsigned long long>(sink.payload_bytes),
              static_cast<unsigned long long>(sink.md5_ok));
  std::printf("best of %d: %.3f s  %.0f MB/s  %.2f M events/s  peak RSS %.1f MiB\n", repeat, best,
              bytes / best / 1e6, sink.events / best / 1e6, ru.ru_maxrss / 1024.0);
  return 0;
}
