// The Chrome-trace view of a database (what `tlscope export chrome-trace` writes): compile phases
// from chromium_events and collectives as complete and instant events, one process per rank, one
// thread per log file's phases and per process group's collective lane. Only complete and instant
// events are produced, so no begin/end pair can be left unbalanced and every complete event on a
// thread nests: compile phases nest by construction (B/E pairs folded into one event) and
// collectives that overlap in time get lanes of their own.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

inline constexpr int64_t kCollectiveTid = 1000;  // first collective lane's tid
inline constexpr int64_t kLanesPerGroup = 100;   // tids per process group

struct TraceEvent {
  int64_t pid = 0, tid = 0;
  double ts_us = 0;
  double dur_us = -1;  // < 0: an instant event
  std::string name, cat;
  // The args as logged (JSON text, possibly not an object), or empty for none.
  std::string logged_args;
  bool has_logged_args = false;
  std::vector<std::pair<std::string, std::string>> extra_args;  // string fields added to args
  bool instant() const { return dur_us < 0; }
};

struct TraceProcess {
  int64_t pid = 0;
  std::string name;  // "rank 2", or "no rank" for events of unranked logs
};

struct TraceThread {
  int64_t pid = 0, tid = 0;
  std::string name;  // "compile phases", "collectives pg 0 (default_pg) overlap 1", ...
};

struct TraceEvents {
  std::vector<TraceProcess> processes;  // by pid
  std::vector<TraceThread> threads;     // by (pid, tid)
  // By (pid, tid, start); of two that start together the longer (outer) one first.
  std::vector<TraceEvent> events;
  uint64_t skipped = 0;  // records without a usable time
};

// pid is the rank (records without one share a pid no rank uses: 0 in a single-process log);
// tid keeps the log's tid for compile phases (+100 per extra log file of the same rank) and is
// kCollectiveTid + kLanesPerGroup * process-group index + lane for collectives.
Result<TraceEvents> load_trace_events(const Database& db);

}  // namespace tlscope::views
