// The report's pool of threads: a small dependency-aware queue of work items.
#include "report_work.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "tlscope/views/read_snapshot.hpp"

namespace tlscope::exporters {

namespace {

class Queue {
 public:
  explicit Queue(const std::vector<WorkItem>& items)
      : items_(items), state_(items.size(), State::kWaiting) {}

  // The next item to run, or nullopt when every item has been taken.
  std::optional<size_t> take() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (taken_ == items_.size()) return std::nullopt;
      if (std::optional<size_t> i = first_ready()) {
        state_[*i] = State::kRunning;
        ++taken_;
        return i;
      }
      ready_.wait(lock);  // what is left waits for running items
    }
  }

  void finish(size_t i) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      state_[i] = State::kDone;
    }
    ready_.notify_all();
  }

 private:
  enum class State { kWaiting, kRunning, kDone };

  std::optional<size_t> first_ready() const {
    for (bool early : {true, false})
      for (size_t i = 0; i < items_.size(); ++i)
        if (state_[i] == State::kWaiting && items_[i].early == early && deps_done(i)) return i;
    return std::nullopt;
  }

  bool deps_done(size_t i) const {
    for (size_t d : items_[i].after)
      if (state_[d] != State::kDone) return false;
    return true;
  }

  const std::vector<WorkItem>& items_;
  std::vector<State> state_;
  size_t taken_ = 0;
  std::mutex mutex_;
  std::condition_variable ready_;
};

}  // namespace

std::vector<WorkOutcome> run_work(const std::vector<WorkItem>& items, size_t threads,
                                  const Database& db, const Site& site,
                                  const ReportOptions& options, const SharedViews& shared) {
  std::vector<WorkOutcome> out;
  out.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) out.push_back({site.branch(), {}, 0});
  Queue queue(items);
  // An item that throws (out of memory) must not end a worker thread, which would terminate the
  // process, nor leave the items after it waiting: it counts as finished, and the first
  // exception is rethrown on the caller's thread once every thread has stopped.
  std::mutex failed_mutex;
  std::exception_ptr failed;
  size_t finished = 0;  // under failed_mutex: the parts done, for options.progress
  auto work = [&](const Database& conn) {
    while (std::optional<size_t> i = queue.take()) {
      WorkOutcome& o = out[*i];
      ReportContext ctx{conn, o.site, options, o.warnings, shared};
      auto start = std::chrono::steady_clock::now();
      try {
        items[*i].run(ctx);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failed_mutex);
        if (!failed) failed = std::current_exception();
      }
      o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      queue.finish(*i);
      if (options.progress) {
        std::lock_guard<std::mutex> lock(failed_mutex);
        options.progress(++finished, items.size());
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) {
    pool.emplace_back([&] {
      // A connection of its own: SQLite connections are not shared between threads here. No
      // writes happen during a report, so every snapshot sees the same data. A connection that
      // cannot open leaves its share to the other threads.
      Database conn(options.db_path);
      if (!conn.error().empty()) return;
      views::ReadSnapshot snapshot(conn);
      work(conn);
    });
  }
  work(db);
  for (std::thread& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);
  return out;
}

}  // namespace tlscope::exporters
