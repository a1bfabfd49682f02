// Opening on a background thread: a rage bundle's database is extracted, logs are ingested and
// analysed (model's ingest API) into the plan's cache database, while the window keeps drawing
// and shows the progress. The thread calls `wake` (glfwPostEmptyEvent) when there is news, so an
// idle window waits in glfwWaitEvents instead of polling.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "open_plan.hpp"

namespace tlscope::gui {

class OpenJob {
 public:
  OpenJob() = default;
  OpenJob(const OpenJob&) = delete;
  OpenJob& operator=(const OpenJob&) = delete;
  ~OpenJob();  // waits for the thread: an ingest cannot be abandoned half-way safely

  // Starts the work of `plan` (nothing to do when plan.ready: done() at once).
  void start(const OpenPlan& plan, std::function<void()> wake);
  bool running() const { return running_.load(); }
  bool done() const { return done_.load(); }
  // 0..1 of the input bytes written, then 1 while the analyses run.
  double fraction() const;
  std::string stage() const;
  // Once done: the plan's database, or "" with `error`.
  std::string result(std::string* error) const;
  const OpenPlan& plan() const { return plan_; }

 private:
  void run();
  void set_stage(std::string s);

  OpenPlan plan_;
  std::function<void()> wake_;
  std::thread thread_;
  std::atomic<bool> running_{false}, done_{false};
  std::atomic<uint64_t> bytes_done_{0}, bytes_total_{0};
  mutable std::mutex mutex_;  // guards stage_ and error_
  std::string stage_, error_;
};

}  // namespace tlscope::gui
