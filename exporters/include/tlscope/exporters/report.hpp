// The static HTML report: a folder of plain pages that open from file:// with no network, read
// from one tlscope database (docs/schema.md). See docs/report.md for the page list and sizes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tlscope::exporters {

struct ReportOptions {
  std::string db_path;
  std::string out_dir;
  size_t rows_per_page = 200;           // table pages split past this many rows
  size_t max_inline_payload = 1 << 20;  // larger payloads are linked .txt, not highlighted
  size_t max_compile_pages = 20000;     // per-compile pages past this are listed, not written
  // Threads writing the page families, each on a read connection of its own; 0: the machine's
  // cores (capped at kMaxReportThreads), and one for a small database (report.cpp says why).
  // The report is byte-identical whatever the count.
  size_t threads = 0;
  // Where the report came from, stated on index.html: the command line that asked for it and
  // the host it ran on, as the caller knows them ("" leaves them unstated).
  std::string command_line;
  std::string host;
  // Called as the page families' parts finish (done of total), from the writing threads one at
  // a time: the CLI's progress line of a big report. Empty: nothing is called.
  std::function<void(size_t done, size_t total)> progress;
};

inline constexpr size_t kMaxReportThreads = 8;

struct ReportResult {
  bool ok = false;
  std::string error;                  // names the file at fault when !ok
  std::vector<std::string> warnings;  // pages that were cut short, tables that were missing
  size_t pages = 0;                   // .html files written
  size_t files = 0;                   // all files written (pages, data, payloads, assets)
  uint64_t bytes = 0;                 // total bytes written
  uint64_t largest_page_bytes = 0;
  bool ran_analysis = false;  // the database had no analysis tables, so they were built first
  // Wall time per page family (summed over its work items, which may have run side by side).
  std::vector<std::pair<std::string, double>> seconds;
};

ReportResult write_report(const ReportOptions& options);

}  // namespace tlscope::exporters
