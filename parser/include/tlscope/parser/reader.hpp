// Streaming reader of TORCH_TRACE logs: bytes -> lines -> records -> Event callbacks.
// Memory is bounded by the largest single record, never by the input size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/parser/sink.hpp"

namespace tlscope::parser {

struct ReaderOptions {
  // A record (envelope + payload) larger than this is reported as kTooLarge and skipped, so one
  // runaway payload cannot exhaust memory. The default admits any real PyTorch payload.
  uint64_t max_record_bytes = uint64_t{1} << 30;
  // Bytes per read() call.
  size_t chunk_bytes = size_t{1} << 20;
  // Target size of a batch: a run of whole records parsed by one thread. A batch grows to hold a
  // record larger than this. At most 2 * threads + 2 batches are in memory at once.
  size_t batch_bytes = size_t{4} << 20;
  // Parsing threads besides the caller's; 0 picks min(2, hardware threads). With 1, or when the
  // whole input fits in one batch, everything runs on the calling thread. The sink is always
  // called on the calling thread, in input order.
  unsigned threads = 0;
};

// What the command line named, expanded: a file, each dedicated_log_torch_trace*.log in a
// directory, or "-" for stdin. Files ending in .gz are read through zlib.
struct InputPlan {
  std::vector<SourceInfo> sources;
  std::vector<std::string> skipped;   // files in a directory that are not trace logs (not errors)
  std::vector<std::string> problems;  // missing paths, directories with no logs: "path: reason"
  // Trace-named entries of a directory that are not regular files (a FIFO, a device, a link to
  // /dev/zero): never opened, reported like problems, but the directory's other logs are read.
  std::vector<std::string> unreadable;
};

// Sources carry their paths as the kernel resolves them (resolved_path), so `LINK/../x.log` is the
// file the kernel would open and the same input is named one way everywhere (the cache key, the
// database's files table, the command log); problems name the paths as given.
InputPlan plan_inputs(const std::vector<std::string>& paths);

// `path` as the kernel resolves it (realpath(3)): links followed, then `..`. A path that does not
// exist yet resolves its existing folder and keeps its last name; the input when nothing resolves.
std::string resolved_path(const std::string& path);

// Rank from `dedicated_log_torch_trace_rank_<N>[_suffix].log`; nullopt for other names.
std::optional<int64_t> rank_from_filename(std::string_view path);

// Reads one source to its end, driving the sink. Never throws for bad input: every problem
// becomes an on_error call. on_source_begin / on_source_end always bracket the events.
// Every ParseError.reason starts with "<path>:<line>: " ("<path>: " when no line applies).
// Errors that describe an emitted event (md5 mismatch, invalid UTF-8 in its payload, a final
// record cut short) have line_count 0: their lines are counted with the event. An empty input
// gives one kTruncated error with line 0 and line_count 0.
SourceSummary parse_source(const SourceInfo& source, EventSink& sink,
                           const ReaderOptions& options = {});

}  // namespace tlscope::parser
