// A blocking FIFO of fixed capacity: a producer that gets ahead of the consumer waits, which is
// what bounds ingest memory no matter how fast parsing runs.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>

namespace tlscope::model {

template <typename T>
class BoundedQueue {
 public:
  explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}

  // False (item dropped) once the queue is closed: the consumer gave up.
  bool push(T item) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return closed_ || items_.size() < capacity_; });
    if (closed_) return false;
    items_.push_back(std::move(item));
    not_empty_.notify_one();
    return true;
  }

  // Wakes and releases every waiting producer; later pushes are dropped.
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    items_.clear();
    not_full_.notify_all();
  }

  T pop() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !items_.empty(); });
    T item = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return item;
  }

 private:
  size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_full_, not_empty_;
  std::deque<T> items_;
  bool closed_ = false;
};

}  // namespace tlscope::model
