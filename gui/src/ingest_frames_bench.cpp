// Frame times during a background ingest (see ingest_frames_bench.hpp).
#include "ingest_frames_bench.hpp"

#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

namespace tlscope::gui {
namespace fs = std::filesystem;
namespace {

const auto kTick = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
    std::chrono::duration<double>(1.0 / IngestFramesBench::kFrameHz));

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// User + system time of the whole process (the UI thread, the open's thread, the parse threads).
double process_cpu_s() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return s(ru.ru_utime) + s(ru.ru_stime);
}

// "1.23 2.34 3.45": /proc/loadavg's 1, 5 and 15 minute figures.
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

// The process's peak resident set in KiB (VmHWM), 0 when /proc does not say.
long peak_rss_kib() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

struct Spread {
  double median = 0, p99 = 0, max = 0;
  size_t over_50 = 0;
};

Spread spread(std::vector<double> ms) {
  Spread s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  s.median = ms[ms.size() / 2];
  s.p99 = ms[std::min(ms.size() - 1, ms.size() * 99 / 100)];
  s.max = ms.back();
  for (double m : ms) s.over_50 += m > 50.0;
  return s;
}

}  // namespace

IngestFramesBench::IngestFramesBench() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/tlscope-ingest-frames-XXXXXX";
  if (mkdtemp(pattern.data())) {
    cache_dir_ = pattern;
    setenv("XDG_CACHE_HOME", cache_dir_.c_str(), 1);
  }
  start_ = frame_start_ = next_tick_ = Clock::now();
}

IngestFramesBench::~IngestFramesBench() {
  std::error_code ec;
  if (!cache_dir_.empty()) fs::remove_all(cache_dir_, ec);
}

void IngestFramesBench::started() {
  start_ = Clock::now();
  process_cpu_start_s_ = process_cpu_s();
  load_at_start_ = load_average();
}

void IngestFramesBench::frame_begin() {
  // The first tick at or after now: a frame that overran its tick waits for the next one.
  const auto now = Clock::now();
  if (next_tick_ < now) next_tick_ += ((now - next_tick_) / kTick + 1) * kTick;
  std::this_thread::sleep_until(next_tick_);
  next_tick_ += kTick;
  frame_start_ = Clock::now();
  frame_cpu_start_ms_ = thread_cpu_ms();
}

void IngestFramesBench::frame_end() {
  frame_ms_.push_back(
      std::chrono::duration<double, std::milli>(Clock::now() - frame_start_).count());
  frame_cpu_ms_.push_back(thread_cpu_ms() - frame_cpu_start_ms_);
}

void IngestFramesBench::print(std::FILE* out, const std::vector<std::string>& inputs,
                              const std::string& error) {
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  const double cpu_seconds = process_cpu_s() - process_cpu_start_s_;
  uintmax_t bytes = 0;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(in, ec))
        if (e.is_regular_file(ec)) bytes += e.file_size(ec);
    } else {
      bytes += fs::file_size(in, ec);
    }
  }
  const Spread wall = spread(frame_ms_), cpu = spread(frame_cpu_ms_);
  std::fprintf(out, "input %.1f MB, open (ingest, analysis, panels) %.1f s%s%s\n",
               static_cast<double>(bytes) / 1e6, seconds,
               error.empty() ? "" : ", failed: ", error.c_str());
  std::fprintf(out, "frames %zu at %.0f Hz, over 50 ms %zu (wall), %zu (UI thread CPU)\n",
               frame_ms_.size(), kFrameHz, wall.over_50, cpu.over_50);
  std::fprintf(out, "median frame %.2f ms\n", wall.median);
  std::fprintf(out, "p99 frame %.2f ms\n", wall.p99);
  std::fprintf(out, "max frame %.2f ms\n", wall.max);
  std::fprintf(out, "median frame UI thread CPU %.2f ms\n", cpu.median);
  std::fprintf(out, "p99 frame UI thread CPU %.2f ms\n", cpu.p99);
  std::fprintf(out, "max frame UI thread CPU %.2f ms\n", cpu.max);
  // Where the slowest frames were: the last ones take the new panels in.
  const auto slowest = std::max_element(frame_cpu_ms_.begin(), frame_cpu_ms_.end());
  if (slowest != frame_cpu_ms_.end())
    std::fprintf(out, "slowest UI thread frame: %zu of %zu\n",
                 static_cast<size_t>(slowest - frame_cpu_ms_.begin()) + 1, frame_cpu_ms_.size());
  const auto slowest_wall = std::max_element(frame_ms_.begin(), frame_ms_.end());
  if (slowest_wall != frame_ms_.end())
    std::fprintf(out, "slowest frame (wall): %zu of %zu\n",
                 static_cast<size_t>(slowest_wall - frame_ms_.begin()) + 1, frame_ms_.size());
  std::fprintf(out, "process CPU (user + sys) during the open %.1f s\n", cpu_seconds);
  std::fprintf(out, "peak RSS (VmHWM) %.1f MiB\n", static_cast<double>(peak_rss_kib()) / 1024.0);
  std::fprintf(out, "load average at start %s, at end %s\n", load_at_start_.c_str(),
               load_average().c_str());
}

}  // namespace tlscope::gui
