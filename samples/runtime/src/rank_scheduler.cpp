// Fibers for ranks (see rank_scheduler.hpp). AddressSanitizer must be told about every stack
// switch, or it reports the other fiber's frames as stack overflows.
#include "tlrt/rank_scheduler.hpp"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <thread>

#if defined(__SANITIZE_ADDRESS__)
#define TLRT_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TLRT_ASAN_FIBERS 1
#endif
#endif
#ifdef TLRT_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace tlrt {

namespace {
thread_local RankScheduler* g_active = nullptr;
}

struct RankScheduler::Context {
  ucontext_t uc{};
  const void* stack_bottom = nullptr;  // ASan: the stack this context runs on
  size_t stack_size = 0;
};

struct RankScheduler::Fiber {
  int rank = 0;
  enum class State { not_started, ready, blocked, finished } state = State::not_started;
  Context ctx;
  void* mapping = nullptr;  // guard page + stack
  size_t mapping_bytes = 0;
  std::optional<Clock::time_point> deadline;
  bool timed_out = false;
  void* fake_stack = nullptr;  // ASan's fake stack of this fiber while it is switched out
  std::string error;
};

RankScheduler::RankScheduler(int nranks, size_t stack_bytes)
    : nranks_(nranks), stack_bytes_(stack_bytes), main_(std::make_unique<Context>()) {
  if (nranks < 1) throw std::invalid_argument("RankScheduler needs at least one rank");
}

RankScheduler::~RankScheduler() {
  for (auto& f : fibers_) {
    if (f && f->mapping) munmap(f->mapping, f->mapping_bytes);
  }
}

RankScheduler* RankScheduler::active() {
  return g_active;
}

void RankScheduler::entry(unsigned lo, unsigned hi) {
  // makecontext passes ints only: the Fiber pointer arrives in two halves.
  auto* f = reinterpret_cast<Fiber*>((static_cast<uintptr_t>(hi) << 32) | lo);
  RankScheduler* s = g_active;
#ifdef TLRT_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &s->main_->stack_bottom, &s->main_->stack_size);
#endif
  try {
    (*s->on_resume_)(f->rank);
    (*s->body_)(f->rank);
  } catch (const std::exception& e) {
    f->error = e.what();
  } catch (...) {
    f->error = "unknown exception";
  }
  s->switch_to_scheduler(*f, true);
}

void RankScheduler::switch_to_scheduler(Fiber& f, bool finished) {
  if (finished) f.state = Fiber::State::finished;
#ifdef TLRT_ASAN_FIBERS
  // A finished fiber's fake stack is released (nullptr), a parked one's is kept for its return.
  __sanitizer_start_switch_fiber(finished ? nullptr : &f.fake_stack, main_->stack_bottom,
                                 main_->stack_size);
#endif
  swapcontext(&f.ctx.uc, &main_->uc);
#ifdef TLRT_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(f.fake_stack, nullptr, nullptr);
#endif
  (*on_resume_)(f.rank);
}

void RankScheduler::resume(Fiber& f) {
  if (f.state == Fiber::State::not_started) {
    long page = sysconf(_SC_PAGESIZE);
    f.mapping_bytes = stack_bytes_ + static_cast<size_t>(page);
    f.mapping = mmap(nullptr, f.mapping_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (f.mapping == MAP_FAILED) {
      f.mapping = nullptr;
      throw std::runtime_error(std::string("cannot map a rank stack: ") + std::strerror(errno));
    }
    // The lowest page is a guard: a fiber that overflows its stack faults instead of corrupting.
    mprotect(f.mapping, static_cast<size_t>(page), PROT_NONE);
    getcontext(&f.ctx.uc);
    f.ctx.stack_bottom = static_cast<char*>(f.mapping) + page;
    f.ctx.stack_size = stack_bytes_;
    f.ctx.uc.uc_stack.ss_sp = const_cast<void*>(f.ctx.stack_bottom);
    f.ctx.uc.uc_stack.ss_size = stack_bytes_;
    f.ctx.uc.uc_link = nullptr;
    auto p = reinterpret_cast<uintptr_t>(&f);
    makecontext(&f.ctx.uc, reinterpret_cast<void (*)()>(&RankScheduler::entry), 2,
                static_cast<unsigned>(p & 0xffffffffu), static_cast<unsigned>(p >> 32));
  }
  f.state = Fiber::State::ready;
  current_ = f.rank;
#ifdef TLRT_ASAN_FIBERS
  void* main_fake = nullptr;
  __sanitizer_start_switch_fiber(&main_fake, f.ctx.stack_bottom, f.ctx.stack_size);
#endif
  swapcontext(&main_->uc, &f.ctx.uc);
#ifdef TLRT_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(main_fake, nullptr, nullptr);
#endif
  current_ = -1;
  if (f.state == Fiber::State::finished) {
    munmap(f.mapping, f.mapping_bytes);
    f.mapping = nullptr;
  }
}

std::vector<std::string> RankScheduler::run(const std::function<void(int)>& body,
                                            const std::function<void(int)>& on_resume) {
  if (g_active) throw std::logic_error("RankScheduler::run is not reentrant");
  body_ = &body;
  on_resume_ = &on_resume;
  g_active = this;
  fibers_.clear();
  ready_.clear();
  for (int r = 0; r < nranks_; ++r) {
    fibers_.push_back(std::make_unique<Fiber>());
    fibers_.back()->rank = r;
    ready_.push_back(r);
  }
  int finished = 0;
  try {
    while (finished < nranks_) {
      if (ready_.empty()) {
        // Nothing can run: the earliest deadline (a timeout or the end of a sleep) fires now.
        Fiber* next = nullptr;
        for (auto& f : fibers_) {
          if (f->state == Fiber::State::blocked && f->deadline &&
              (!next || *f->deadline < *next->deadline))
            next = f.get();
        }
        if (!next) throw std::runtime_error("every rank waits and none has a timeout: deadlock");
        std::this_thread::sleep_until(*next->deadline);
        next->timed_out = true;
        next->state = Fiber::State::ready;
        ready_.push_back(next->rank);
      }
      Fiber& f = *fibers_[static_cast<size_t>(ready_.front())];
      ready_.pop_front();
      resume(f);
      if (f.state == Fiber::State::finished) ++finished;
    }
  } catch (...) {
    g_active = nullptr;
    throw;
  }
  g_active = nullptr;
  std::vector<std::string> errors;
  for (auto& f : fibers_) errors.push_back(f->error);
  fibers_.clear();
  return errors;
}

bool RankScheduler::block(std::optional<Clock::time_point> deadline) {
  Fiber& f = *fibers_[static_cast<size_t>(current_)];
  f.state = Fiber::State::blocked;
  f.deadline = deadline;
  f.timed_out = false;
  switch_to_scheduler(f, false);
  f.deadline.reset();
  return !f.timed_out;
}

void RankScheduler::wake(int rank) {
  Fiber& f = *fibers_.at(static_cast<size_t>(rank));
  if (f.state != Fiber::State::blocked) return;
  f.state = Fiber::State::ready;
  ready_.push_back(rank);
}

void RankScheduler::sleep_for(std::chrono::milliseconds d) {
  auto until = Clock::now() + d;
  while (Clock::now() < until) block(until);
}

}  // namespace tlrt
