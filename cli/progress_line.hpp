// One status line on stderr for a long step (ingest of big logs, compare's two ingests, the
// report's pages): redrawn in place at most ten times a second, and only for a person: when
// stderr is a terminal and the command's answer is text. Piped or redirected stderr, and
// `--format json|markdown` (output for a program or a paste), get no progress at all, so a
// script's captured stderr holds only messages. Safe to call from several threads.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace tlscope::cli {

class ProgressLine {
 public:
  // `for_a_person`: false in the machine formats; the line is drawn only if also isatty(2).
  explicit ProgressLine(bool for_a_person = true);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { clear(); }

  bool enabled() const { return enabled_; }
  // "ingesting [#####     ] 12.3 / 45.6 MB": `done` of `total` in `unit` (bytes shown as MB);
  // total 0 shows the count alone. The last step (done == total) is always drawn.
  void show(std::string_view stage, uint64_t done, uint64_t total, std::string_view unit);
  // Erases the line (before the command prints its answer or a message).
  void clear();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
  std::mutex mutex_;
};

}  // namespace tlscope::cli
