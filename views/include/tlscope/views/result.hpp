// What every views/ loader returns: the view model and, when a read failed, a message naming the
// database and what failed. No exception leaves views/; a front end shows error() and the parts
// of value that did load.
#pragma once

#include <string>
#include <utility>

namespace tlscope::views {

template <typename T>
struct Result {
  T value{};
  std::string error;  // "" when every read succeeded

  bool ok() const { return error.empty(); }
  const T& operator*() const { return value; }
  T& operator*() { return value; }
  const T* operator->() const { return &value; }
  T* operator->() { return &value; }
  // Keeps the first failure: later reads of a partly broken database say less about the cause.
  void fail(std::string message) {
    if (error.empty()) error = std::move(message);
  }
};

// What a read that hands its rows to a callback returns: only whether it failed, kept the
// Result way (the first failure stays).
struct RowsRead {};
using Status = Result<RowsRead>;

}  // namespace tlscope::views
