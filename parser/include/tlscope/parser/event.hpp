// The typed hand-off between the streaming parser and whatever consumes it (the SQLite store,
// tests, the benchmark). Everything here is a view into the parser's buffers: valid only for the
// duration of the sink callback that receives it. Copy what you keep.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tlscope::parser {

// The glog prefix `V1206 15:18:16.845000 1500233 torch/_dynamo/utils.py:1288] `.
struct GlogHeader {
  char level = 'V';
  uint8_t month = 0, day = 0, hour = 0, minute = 0, second = 0;
  uint32_t microsecond = 0;
  uint64_t thread = 0;        // "PID" column (process id, or a thread id in 2024 logs)
  std::string_view pathname;  // caller file as written, e.g. torch/_dynamo/utils.py (without
                              // the space that tlparse's regex group keeps in front)
  uint32_t lineno = 0;
};

// The context fields of an envelope. Each is absent when the envelope does not carry it (a JSON
// null counts as absent, as in PyTorch's Dec 2024 logs that always wrote compiled_autograd_id).
struct CompileContext {
  std::optional<int64_t> compiled_autograd_id;
  std::optional<int64_t> frame_id;
  std::optional<int64_t> frame_compile_id;
  std::optional<int64_t> attempt;
};

enum class Md5Status : uint8_t {
  kNoPayload,  // the envelope has no has_payload
  kOk,         // payload MD5 equals has_payload
  kMismatch,   // payload kept, mismatch also reported as an error
};

// One record: an envelope line plus its payload lines.
struct Event {
  uint32_t source_id = 0;    // index of the input source (file) within this parse
  uint64_t line = 0;         // 1-based line number of the envelope line
  uint64_t byte_offset = 0;  // offset of the envelope line's first byte in the (decompressed) input
  uint32_t payload_lines = 0;  // number of TAB-prefixed lines that followed the envelope (blank
                               // lines among them are dropped, as tlparse drops them)

  GlogHeader header;
  std::string_view kind;        // the event key: "dynamo_start", "artifact", "str", ... The first
                                // key that is not a context field; later non-context keys are
                                // left in `envelope` only
  std::string_view metadata;    // raw JSON text of the value under `kind` (e.g. {"name": ..})
  std::string_view envelope;    // the whole envelope JSON text
  std::optional<int64_t> rank;  // envelope "rank"
  CompileContext context;
  // The explicit top-level "stack" (frames as raw JSON array text) when the event carries one
  // instead of compile ids; empty if absent.
  std::string_view stack;
  // The envelope's "subgraph_name" (PyTorch 2.8+: "repeated_subgraph0",
  // "partitioned_bw_subgraph_1_0"), as written; empty if absent.
  std::string_view subgraph_name;

  bool has_payload = false;
  std::string_view payload_md5;  // the has_payload hex string as written
  Md5Status md5 = Md5Status::kNoPayload;
  std::string_view payload;  // TABs stripped, lines joined with '\n', no trailing newline
};

// Problems found while reading. Reading always goes on after one of these.
enum class ErrorKind : uint8_t {
  kBadHeader,      // a line that is neither a glog header, a payload line, nor blank
  kBadJson,        // the envelope is not one JSON object, has no event key, or a context id
                   // (rank, frame_id, ...) is not an integer or null, as tlparse requires
  kMd5Mismatch,    // payload MD5 does not match has_payload (the event is still emitted)
  kOrphanPayload,  // TAB lines with no preceding envelope that has has_payload
  kTruncated,      // input cut short: an unterminated last line that does not parse, a last
                   // payload that fails its MD5 and has no final newline, or an empty input.
                   // A complete last record without final newline is fine (tlparse's fixtures)
  kInvalidUtf8,    // bytes that are not UTF-8 (the line is still processed)
  kBinary,         // NUL or other control bytes in a line that should be a header
  kIo,             // cannot open/read, gzip stream corrupt or cut short
  kTooLarge,       // a single record beyond the configured limit
};

std::string_view to_string(ErrorKind kind);

struct ParseError {
  uint32_t source_id = 0;
  uint64_t line = 0;  // 1-based first line of the bad region; 0 if not line-specific
  uint64_t byte_offset = 0;
  uint64_t line_count = 1;  // how many input lines this error row accounts for (see
                            // LineAccounting); 0 for problems of an emitted event (md5 mismatch,
                            // invalid UTF-8 in its payload, cut short), whose lines count with the
                            // event, and for source problems (I/O, empty input)
  ErrorKind kind = ErrorKind::kBadHeader;
  std::string reason;        // human readable, names what is wrong
  std::string_view excerpt;  // raw bytes of the start of the bad region (bounded length)
};

// Every input line lands in exactly one bucket; the buckets add up to the line count.
struct LineAccounting {
  uint64_t total_lines = 0;
  uint64_t envelope_lines = 0;  // envelope lines of emitted events
  uint64_t payload_lines = 0;   // payload lines of emitted events
  uint64_t blank_lines = 0;     // empty (or whitespace-only) lines, wherever they are: inside a
                                // payload run they are dropped without ending it (tlparse does
                                // the same), so a TAB-less payload line shows as an MD5 mismatch
  uint64_t error_lines = 0;     // lines accounted to ParseError rows (sum of line_count)
};

struct SourceInfo {
  uint32_t source_id = 0;
  std::string path;             // as given ("-" for stdin)
  std::optional<int64_t> rank;  // rank taken from the file name, if it has one
  bool gzip = false;
};

struct SourceSummary {
  uint32_t source_id = 0;
  uint64_t bytes = 0;  // decompressed bytes read
  uint64_t events = 0;
  uint64_t errors = 0;
  LineAccounting lines;
  uint64_t content_hash = 0;  // 64-bit hash of all decompressed bytes (duplicate detection)
  bool completed = false;     // false when reading stopped early (I/O error)
};

}  // namespace tlscope::parser
