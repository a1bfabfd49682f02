// Chrome trace JSON (the Trace Event Format that Perfetto and chrome://tracing load) from a
// tlscope database: compile phases from chromium_event records and, when present, collectives.
#pragma once

#include <cstdint>
#include <string>

namespace tlscope::exporters {

struct ChromeTraceResult {
  bool ok = false;
  std::string error;
  uint64_t events = 0;   // trace events written (metadata included)
  uint64_t skipped = 0;  // records without a usable time
};

// pid is the rank (records without one share a pid no rank uses: 0 in a single-process log);
// tid keeps the log's tid for compile phases (+100 per extra log file of the same rank) and is
// 1000 + 100 * process-group index + lane for collectives, so each group has its own track and
// collectives that overlap in time get a lane of their own.
ChromeTraceResult export_chrome_trace(const std::string& db_path, const std::string& out_path);

}  // namespace tlscope::exporters
