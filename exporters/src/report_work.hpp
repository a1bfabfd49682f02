// The report's work items (a page family, or a slice of the compile pages) and the pool of
// threads that runs them. Each item writes through a Site branch and a notes list of its own;
// the caller merges them in item order, so the report is byte-identical for any thread count.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "site.hpp"

namespace tlscope::exporters {

struct SharedViews;  // pages.hpp

struct WorkItem {
  std::string_view family;  // the page family it belongs to (for the timings)
  std::function<void(ReportContext&)> run;
  std::vector<size_t> after;  // items (indexes) that must have finished first
  bool early = false;         // started before the others that are ready (see below)
};

struct WorkOutcome {
  Site site;
  std::vector<std::string> warnings;
  double seconds = 0;
};

// Runs `items` on `threads` threads (1: in order on the caller's thread, on `db`), each thread
// with a read-only connection and read snapshot of its own (`db` is the first thread's). A
// thread takes the first ready item, `early` ones before the rest: the long indivisible families
// go first and the small slices fill in behind them. Returns one outcome per item.
std::vector<WorkOutcome> run_work(const std::vector<WorkItem>& items, size_t threads,
                                  const Database& db, const Site& site,
                                  const ReportOptions& options, const SharedViews& shared);

}  // namespace tlscope::exporters
