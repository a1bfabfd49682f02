// The progress line of long steps (progress_line.hpp).
#include "progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace tlscope::cli {
namespace {

constexpr int kProgressBarWidth = 24;

std::string amount(uint64_t n, std::string_view unit) {
  char text[48];
  if (unit == "bytes")
    std::snprintf(text, sizeof text, "%.1f", n / 1e6);
  else
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(n));
  return text;
}

}  // namespace

ProgressLine::ProgressLine(bool for_a_person) : enabled_(for_a_person && isatty(STDERR_FILENO)) {}

void ProgressLine::show(std::string_view stage, uint64_t done, uint64_t total,
                        std::string_view unit) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100) && (total == 0 || done < total))
    return;
  last_ = now;
  const std::string shown_unit = unit == "bytes" ? "MB" : std::string(unit);
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "[" + string.
  std::string line = "\r";
  line += stage;
  line += ' ';
  if (total > 0) {
    const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total));
    const int filled = static_cast<int>(frac * kProgressBarWidth);
    line += '[';
    line.append(static_cast<size_t>(filled), '#');
    line.append(static_cast<size_t>(kProgressBarWidth - filled), ' ');
    line += "] " + amount(done, unit) + " / " + amount(total, unit) + " " + shown_unit;
  } else {
    line += amount(done, unit) + " " + shown_unit;
  }
  line += "\x1b[K";  // erase what a longer earlier line left
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!drawn_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace tlscope::cli
