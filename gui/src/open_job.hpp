// Opening on a background thread: a rage bundle's database is extracted, logs are resolved through
// model::resolve_input_database (the CLI's cache: reused when current, else ingested and
// analysed), while the window keeps drawing and shows the progress. The thread calls `wake`
// (glfwPostEmptyEvent) when there is news, so an idle window waits in glfwWaitEvents instead of
// polling. A cancel (or destroying the job) stops the ingest between batches, leaving nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "open_plan.hpp"
#include "viewer_data.hpp"

namespace tlscope::gui {

// What the window shows of a running open.
struct OpenProgress {
  double fraction = 0;  // 0..1 of the input bytes written; 1 once done
  std::string stage;    // "ingesting", "analysing", "extracting the bundle's database"
  uint64_t files_done = 0, files_total = 0;
  uint64_t events = 0, errors = 0;  // stored so far
};

class OpenJob {
 public:
  OpenJob() = default;
  OpenJob(const OpenJob&) = delete;
  OpenJob& operator=(const OpenJob&) = delete;
  ~OpenJob();  // cancels a running ingest and waits for the thread (one batch, not the ingest)

  // Starts the work of `plan` (nothing to do when plan.ready: done() at once). With `load`, the
  // thread then reads every panel's view models too (load_viewer_data): for a big log that takes
  // seconds, which the window must not spend between two frames.
  void start(const OpenPlan& plan, std::function<void()> wake,
             std::optional<ViewerOptions> load = std::nullopt);
  // Asks the running work to stop; done() follows after the batch being written.
  void cancel() { cancel_ = true; }
  bool running() const { return running_.load(); }
  bool done() const { return done_.load(); }
  OpenProgress progress() const;
  // Once done: the plan's database, or "" with `error` ("...: cancelled; nothing was kept" after
  // a cancel).
  std::string result(std::string* error) const;
  // Once done: whether this job ingested the logs (false: the cache was current, or not logs).
  bool ingested() const { return ingested_.load(); }
  // Once done, with `load` given and no error: the panels' data (moved out; null afterwards).
  std::unique_ptr<ViewerData> take_data() { return std::move(data_); }
  const OpenPlan& plan() const { return plan_; }

 private:
  void run();
  void run_open(std::string& error);
  void set_stage(std::string s);

  OpenPlan plan_;
  std::optional<ViewerOptions> load_;
  std::unique_ptr<ViewerData> data_;  // written by the thread before done_, read after
  std::function<void()> wake_;
  std::thread thread_;
  std::atomic<bool> running_{false}, done_{false}, cancel_{false}, ingested_{false};
  std::atomic<uint64_t> bytes_done_{0}, bytes_total_{0};
  std::atomic<uint64_t> files_done_{0}, files_total_{0}, events_{0}, errors_{0};
  mutable std::mutex mutex_;  // guards stage_ and error_
  std::string stage_, error_;
};

}  // namespace tlscope::gui
