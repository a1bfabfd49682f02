// Redaction speed of `tlscope rage` on one log: redact_log into a scratch file, timed.
// Usage: rage_redact_bench [--redact-paths] IN.log [OUT.log]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "bench_args.hpp"
#include "tlscope/exporters/rage/log_redaction.hpp"

int main(int argc, char** argv) {
  using namespace tlscope::exporters::rage;
  RedactionOptions options;
  std::string in, out = "/tmp/rage_redact_bench.out";
  CLI::App app{"Redaction speed of tlscope rage on one log"};
  app.add_flag("--redact-paths", options.redact_paths, "Also hide a home directory and user name");
  app.add_option("in", in, "The log to redact")->required()->check(CLI::ExistingFile);
  app.add_option("out", out, "Where to write the redacted copy");
  if (auto rc = tlscope::bench::parse_args(app, argc, argv)) return *rc;
  if (options.redact_paths) {
    options.home = "/data/users/xmfan";
    options.user = "xmfan";
  }
  Redactor redactor(options);
  auto start = std::chrono::steady_clock::now();
  LogRedaction r = redact_log(in, out, redactor);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  double cpu =
      u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  if (!r.ok) {
    std::fprintf(stderr, "%s\n", r.error.c_str());
    return 1;
  }
  std::printf(
      "%.1f MB in %.2f s wall, %.2f s CPU (%.0f MB per CPU-second), %llu lines, %llu "
      "redacted, %llu payloads rehashed, peak RSS %.1f MiB\n",
      r.bytes_in / 1e6, wall, cpu, r.bytes_in / 1e6 / cpu, static_cast<unsigned long long>(r.lines),
      static_cast<unsigned long long>(r.counts.total()),
      static_cast<unsigned long long>(r.payloads_rehashed), u.ru_maxrss / 1024.0);
  return 0;
}
