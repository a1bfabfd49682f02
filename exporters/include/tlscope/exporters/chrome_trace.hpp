// Chrome trace JSON (the Trace Event Format that Perfetto and chrome://tracing load) from a
// tlscope database: compile phases from chromium_event records and, when present, collectives.
#pragma once

#include <cstdint>
#include <string>

namespace tlscope::exporters {

struct ChromeTraceResult {
  bool ok = false;
  std::string error;
  uint64_t events = 0;  // trace events written
};

// pid is the rank (-1 when the log has none); tid keeps the log's tid for compile phases and is
// 1000 + process-group lane for collectives so they sit on their own tracks.
ChromeTraceResult export_chrome_trace(const std::string& db_path, const std::string& out_path);

}  // namespace tlscope::exporters
