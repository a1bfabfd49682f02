// `tlscope gui [DB] --bench-ingest-frames LOG...`: the window draws frames as a real window does,
// one per tick of a 60 Hz display (the bench sleeps to the next tick as vsync would), while LOG is
// ingested and analysed in the background (into a fresh cache folder, so nothing is reused); the
// frame times of the UI thread, the process's peak RSS and CPU time are printed when the open is
// done. With DB, its panels are on screen above the progress strip; without, the start screen
// with the progress.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace tlscope::gui {

class IngestFramesBench {
 public:
  // The display rate the frames are paced at.
  static constexpr double kFrameHz = 60.0;

  // Points XDG_CACHE_HOME at a new folder under $TMPDIR (removed again by the destructor).
  IngestFramesBench();
  ~IngestFramesBench();
  IngestFramesBench(const IngestFramesBench&) = delete;
  IngestFramesBench& operator=(const IngestFramesBench&) = delete;

  const std::string& cache_dir() const { return cache_dir_; }
  void started();
  // Sleeps to the next display tick (at once when the last frame overran it, as vsync would
  // present it at the next one), then starts timing the frame.
  void frame_begin();
  // The frame is done (after glFinish): its wall and UI-thread CPU time are recorded.
  void frame_end();
  // Frames, frames over 50 ms, median, p99 and max frame time in ms (wall time, and the UI
  // thread's CPU time: on a loaded machine the two differ by the time the thread waited for a
  // core), the open's wall time and the input size, the process's peak RSS and CPU time, and the
  // load average at the start and the end.
  void print(std::FILE* out, const std::vector<std::string>& inputs, const std::string& error);

 private:
  using Clock = std::chrono::steady_clock;
  std::string cache_dir_;
  Clock::time_point start_, frame_start_, next_tick_;
  double frame_cpu_start_ms_ = 0;
  double process_cpu_start_s_ = 0;
  std::string load_at_start_;
  std::vector<double> frame_ms_, frame_cpu_ms_;
};

}  // namespace tlscope::gui
