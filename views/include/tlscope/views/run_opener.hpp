// Opening a run on a background thread (open_run.hpp says what opening is): a rage bundle's
// database is extracted, logs are opened through the input cache (reused when current, else
// ingested and analysed), while a window keeps drawing and shows the progress. The thread calls
// `wake` when there is news, so an idle window can wait for events instead of polling. A cancel
// (or destroying the opener) stops the ingest between batches, leaving nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "tlscope/views/open_run.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// More work for the opening thread once the database is there (a viewer reads its panels' view
// models: for a big log that takes seconds, which a window must not spend between two frames).
// `run` gets the database's path and returns "" or what went wrong.
struct AfterOpen {
  std::string stage;  // shown while it runs, e.g. "reading the panels"
  std::function<std::string(const std::string& db_path)> run;
};

class RunOpener {
 public:
  RunOpener() = default;
  RunOpener(const RunOpener&) = delete;
  RunOpener& operator=(const RunOpener&) = delete;
  ~RunOpener();  // cancels a running ingest and waits for the thread (one batch, not the ingest)

  // Starts the work of `plan` (nothing to do when plan.ready and no `after`: done() at once).
  void start(const OpenPlan& plan, std::function<void()> wake, AfterOpen after = {});
  // Asks the running work to stop; done() follows after the batch being written.
  void cancel() { cancel_ = true; }
  // Cancels and waits for the thread: what an owner of state that `after` writes calls before
  // that state goes.
  void stop();
  bool running() const { return running_.load(); }
  bool done() const { return done_.load(); }
  OpenProgress progress() const;
  // Once done: the plan's database, or the error ("...: cancelled; nothing was kept" after a
  // cancel).
  Result<std::string> result() const;
  // Once done: whether this open ingested the logs (false: the cache was current, or not logs).
  bool ingested() const { return ingested_.load(); }
  const OpenPlan& plan() const { return plan_; }

 private:
  void run();
  void run_open(std::string& error);
  void set_stage(std::string s);

  OpenPlan plan_;
  AfterOpen after_;
  std::function<void()> wake_;
  std::thread thread_;
  std::atomic<bool> running_{false}, done_{false}, cancel_{false}, ingested_{false};
  std::atomic<uint64_t> bytes_done_{0}, bytes_total_{0};
  std::atomic<uint64_t> files_done_{0}, files_total_{0}, events_{0}, errors_{0};
  mutable std::mutex mutex_;  // guards stage_ and error_
  std::string stage_, error_;
};

}  // namespace tlscope::views
