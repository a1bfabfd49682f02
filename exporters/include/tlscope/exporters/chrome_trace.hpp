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

// Writes the events of views::load_trace_events (pid = rank; trace_events.hpp has the pid and
// tid rules). A database that cannot be read is refused with a message naming it.
ChromeTraceResult export_chrome_trace(const std::string& db_path, const std::string& out_path);

}  // namespace tlscope::exporters
