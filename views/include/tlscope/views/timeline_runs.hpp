// Runs: the files of one job, told apart by time. Logs gathered from different jobs (the real
// multi_rank_logs hold files days apart) must never share one time axis, so each timeline
// measures time from the start of its own run.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"

namespace tlscope::views {

// Files closer than this (or overlapping) belong to one run: ranks of a job log within seconds
// of each other, restarted or unrelated jobs hours or days apart.
constexpr double kRunGapUs = 3600e6;

struct FileSpan {
  int64_t file_id = 0;
  double start_us = 0, end_us = 0;
};

struct TraceRun {
  double start_us = 0, end_us = 0;  // absolute (the log's clock)
  std::vector<int64_t> file_ids;
};

struct TraceRuns {
  std::vector<TraceRun> runs;  // by start time
  std::map<int64_t, int> run_of_file;
  // The run of `file_id`; 0 when the file has no timed record (then it joins the first run).
  int run_of(int64_t file_id) const {
    auto it = run_of_file.find(file_id);
    return it == run_of_file.end() ? 0 : it->second;
  }
  // Where time 0 of `run` lies on the log's clock.
  double origin_us(int run) const {
    return run >= 0 && run < static_cast<int>(runs.size()) ? runs[static_cast<size_t>(run)].start_us
                                                           : 0.0;
  }
};

// Groups file spans into runs: sorted by start, a file starting more than kRunGapUs after the
// latest end so far begins a new run.
TraceRuns group_into_runs(std::vector<FileSpan> files);

// The spans of every file from its chromium events and collectives.
Result<TraceRuns> load_trace_runs(const Database& db);

}  // namespace tlscope::views
