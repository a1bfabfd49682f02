// A long job's summary in a few lines: past kListedFiles files, the files with nothing to flag
// (complete, no errors, every line accounted for) fold into one line named by rank ranges, and
// ranks that logged alike (same files, same event count) share a line. A 1,024-rank job then
// reads as a handful of lines and the files or ranks that need a look, instead of 3,000 lines.
// Small jobs are listed one file and one rank per line, as before.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tlscope/views/summary.hpp"

namespace tlscope::views {

inline constexpr size_t kListedFiles = 16;

// Envelope + payload + blank + error lines add up to the file's lines.
bool lines_accounted(const FileRow& f);
// Nothing to flag: complete, no input errors, every line accounted for.
bool quiet_file(const FileRow& f);

struct FileFolding {
  std::vector<size_t> listed;  // indexes into Summary::files of the files listed, in order
  // The folded quiet files: how many, their ranks (files without a rank counted apart) and sums.
  int64_t files = 0, without_rank = 0;
  std::vector<int64_t> ranks;
  int64_t bytes = 0, lines = 0, events = 0;
  int64_t envelope_lines = 0, payload_lines = 0, blank_lines = 0, error_lines = 0;
  // Empty files (0 bytes, read to the end; each has the one ingest error "input is empty"),
  // folded apart from the quiet ones: flagged, but all alike, so one line says it. 100,000
  // empty rank files were 200,000 lines of the summary (issue 27).
  struct Empty {
    int64_t files = 0, without_rank = 0;
    std::vector<int64_t> ranks;
  } empty;
};

// An empty file that read to its end: 0 bytes, 0 lines, no event.
bool empty_file(const FileRow& f);

// Every file listed when there are at most `max_listed` (or `all`); else the quiet ones folded.
FileFolding fold_files(const Summary& s, size_t max_listed = kListedFiles, bool all = false);

struct RankGroup {
  std::vector<int64_t> ranks;  // ascending; one entry -1 for the files without a rank
  int64_t files = 0, events = 0;
};

// One group per rank when there are at most `max_listed` ranks (or `all`), in rank order; else
// ranks with the same (files, events) grouped, largest group first, then by first rank.
std::vector<RankGroup> group_ranks(const Summary& s, size_t max_listed = kListedFiles,
                                   bool all = false);

}  // namespace tlscope::views
