// Cooperative ranks: every rank body runs as a fiber (its own small stack, ucontext) on the calling
// thread, one at a time. A rank runs until it waits in a collective or sleeps; then the next ready
// rank runs. Why not a thread per rank: at 1,024-4,096 ranks that is a kernel thread and an 8 MB
// stack each, and the collective timeout becomes a race with the CPU scheduler on a loaded 2-core
// machine. Here a wait times out only when no rank can run any more (a real hang), so a slow
// machine never turns a slow peer into a false timeout, and the order ranks run in is fixed.
#pragma once
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tlrt {

class RankScheduler {
 public:
  using Clock = std::chrono::steady_clock;

  // Stacks are reserved with mmap (only touched pages cost memory) and freed when a rank ends.
  explicit RankScheduler(int nranks, size_t stack_bytes = size_t{1} << 20);
  ~RankScheduler();
  RankScheduler(const RankScheduler&) = delete;
  RankScheduler& operator=(const RankScheduler&) = delete;

  // Runs body(rank) for every rank until all have returned. on_resume(rank) runs on the rank's
  // stack each time it starts or resumes (it installs the rank's thread-local state). An
  // exception escaping a body is returned as that rank's error text (empty: none).
  std::vector<std::string> run(const std::function<void(int)>& body,
                               const std::function<void(int)>& on_resume);

  // From inside a rank. Parks it until wake(rank), or until `deadline` when nothing else can run;
  // returns false when the deadline ended the wait. Wakes may be spurious: callers re-check.
  bool block(std::optional<Clock::time_point> deadline);
  void wake(int rank);
  // Lets the other ranks run while this one is away for `d` of wall-clock time.
  void sleep_for(std::chrono::milliseconds d);
  int current() const { return current_; }

  // The scheduler running the calling thread's ranks (nullptr outside run()).
  static RankScheduler* active();

 private:
  struct Fiber;
  static void entry(unsigned lo, unsigned hi);
  void switch_to_scheduler(Fiber& f, bool finished);
  void resume(Fiber& f);

  int nranks_;
  size_t stack_bytes_;
  std::vector<std::unique_ptr<Fiber>> fibers_;
  std::deque<int> ready_;
  int current_ = -1;
  struct Context;
  std::unique_ptr<Context> main_;
  const std::function<void(int)>* body_ = nullptr;
  const std::function<void(int)>* on_resume_ = nullptr;
};

}  // namespace tlrt
