// Frame times during a background ingest (see ingest_frames_bench.hpp).
#include "ingest_frames_bench.hpp"

#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <filesystem>

namespace tlscope::gui {
namespace fs = std::filesystem;
namespace {

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct Spread {
  double median = 0, max = 0;
  size_t over_50 = 0;
};

Spread spread(std::vector<double> ms) {
  Spread s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  s.median = ms[ms.size() / 2];
  s.max = ms.back();
  for (double m : ms) s.over_50 += m > 50.0;
  return s;
}

}  // namespace

void IngestFramesBench::frame_begin() {
  frame_start_ = Clock::now();
  frame_cpu_start_ms_ = thread_cpu_ms();
}

IngestFramesBench::IngestFramesBench() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/tlscope-ingest-frames-XXXXXX";
  if (mkdtemp(pattern.data())) {
    cache_dir_ = pattern;
    setenv("XDG_CACHE_HOME", cache_dir_.c_str(), 1);
  }
  start_ = frame_start_ = Clock::now();
}

IngestFramesBench::~IngestFramesBench() {
  std::error_code ec;
  if (!cache_dir_.empty()) fs::remove_all(cache_dir_, ec);
}

void IngestFramesBench::frame_end() {
  frame_ms_.push_back(
      std::chrono::duration<double, std::milli>(Clock::now() - frame_start_).count());
  frame_cpu_ms_.push_back(thread_cpu_ms() - frame_cpu_start_ms_);
}

void IngestFramesBench::print(std::FILE* out, const std::vector<std::string>& inputs,
                              const std::string& error) {
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
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
  std::fprintf(out, "frames %zu, over 50 ms %zu (wall), %zu (UI thread CPU)\n", frame_ms_.size(),
               wall.over_50, cpu.over_50);
  std::fprintf(out, "median frame %.2f ms\n", wall.median);
  std::fprintf(out, "max frame %.2f ms\n", wall.max);
  std::fprintf(out, "median frame UI thread CPU %.2f ms\n", cpu.median);
  std::fprintf(out, "max frame UI thread CPU %.2f ms\n", cpu.max);
  // Where the slowest frame was: the last ones take the new panels in.
  const auto slowest = std::max_element(frame_cpu_ms_.begin(), frame_cpu_ms_.end());
  if (slowest != frame_cpu_ms_.end())
    std::fprintf(out, "slowest UI thread frame: %zu of %zu\n",
                 static_cast<size_t>(slowest - frame_cpu_ms_.begin()) + 1, frame_cpu_ms_.size());
}

}  // namespace tlscope::gui
