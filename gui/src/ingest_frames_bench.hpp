// `tlscope gui [DB] --bench-ingest-frames LOG...`: the window draws frames as fast as it can while
// LOG is ingested and analysed in the background (into a fresh cache folder, so nothing is
// reused), and the frame times of the UI thread are printed when the open is done. With DB, its
// panels are on screen above the progress strip; without, the start screen with the progress.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace tlscope::gui {

class IngestFramesBench {
 public:
  // Points XDG_CACHE_HOME at a new folder under $TMPDIR (removed again by the destructor).
  IngestFramesBench();
  ~IngestFramesBench();
  IngestFramesBench(const IngestFramesBench&) = delete;
  IngestFramesBench& operator=(const IngestFramesBench&) = delete;

  const std::string& cache_dir() const { return cache_dir_; }
  void started() { start_ = Clock::now(); }
  void frame_begin();
  void frame_end();
  // Frames, median and max frame time in ms (wall time, and the UI thread's CPU time: on a loaded
  // machine the two differ by the time the thread waited for a core), the open's wall time and
  // the input size.
  void print(std::FILE* out, const std::vector<std::string>& inputs, const std::string& error);

 private:
  using Clock = std::chrono::steady_clock;
  std::string cache_dir_;
  Clock::time_point start_, frame_start_;
  double frame_cpu_start_ms_ = 0;
  std::vector<double> frame_ms_, frame_cpu_ms_;
};

}  // namespace tlscope::gui
