// Telling the runs apart in a TORCH_TRACE directory, which keeps the logs of every run that was
// pointed at it. Each file spans [first record, last record] in the writer's wall-clock time (the
// glog headers); the ranks of one launch run at the same time, so their spans overlap, and a rank
// that appears twice must belong to two runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::exporters::rage {

// Wall-clock times as written in the log headers, as seconds since 1970 (no time zone applied:
// they are only compared with each other and printed back as they were written).
struct TraceFile {
  std::string path;
  std::optional<int64_t> rank;  // from the file name
  uint64_t bytes = 0;           // on disk
  int64_t mtime = 0;            // seconds since the epoch
  bool gzip = false;
  double start = 0, end = 0;  // wall-clock seconds (see above)
  bool timed = false;         // start/end come from headers (else from the modification time)
  // Filled by scan_trace_file (a full read); -1 until then.
  int64_t records = -1, compiles = -1, failed_compiles = -1, graph_breaks = -1;
};

struct TraceRun {
  std::vector<TraceFile> files;  // ranked files in rank order, then the others
  double start = 0, end = 0;
  uint64_t bytes = 0;
  std::vector<int64_t> ranks;
  bool scanned = false;
  int64_t records = 0, compiles = 0, failed_compiles = 0, graph_breaks = 0;
};

struct RunGrouping {
  // Spans further apart than this are different runs even when no rank repeats.
  double gap_seconds = 60;
};

// Reads the first and last records' header times (the head and the last 64 KB; a .gz file is read
// to its end). Never fails: a file with no readable header falls back to its modification time.
TraceFile probe_trace_file(const std::string& path);

// Empty when `path` reads as a TORCH_TRACE log: a regular file (gzipped or not) whose head holds
// at least one record and whose record lines there are all a glog header and a JSON object. Else
// why not, naming the path (and line). `rage --command` bundles only files that pass.
std::string trace_log_problem(const std::string& path);

// Reads the whole file counting records, compiles (compilation_metrics), failed compiles (a
// non-null fail_type) and graph breaks; also sets the exact end time. False with `error` on I/O
// failure.
bool scan_trace_file(TraceFile& file, std::string& error);

// Groups files into runs, newest first. Files without a rank in their name were written by a
// process without torch.distributed: each is a run of its own.
std::vector<TraceRun> group_runs(std::vector<TraceFile> files, const RunGrouping& grouping = {});

// Fills the run totals from its files' scans.
void total_scans(TraceRun& run);

// "2024-12-06 15:20:13" for a wall-clock time.
std::string format_wall_time(double seconds);
// `seconds` (UTC, since the epoch) in strftime's `format`, e.g. "%Y-%m-%dT%H:%M:%SZ".
std::string format_utc(double seconds, const char* format);

// Wall-clock seconds of a glog header "V1206 15:20:13.926000 ..." for a file last modified at
// `mtime`: the year is the modification's, or the one before when the date would lie after it.
std::optional<double> header_wall_time(std::string_view line, int64_t mtime);

}  // namespace tlscope::exporters::rage
