// A run of whole records handed from the splitter to a parsing thread, and what came out of it.
// Line numbers and byte offsets inside are relative to the chunk; delivery makes them absolute.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tlscope/parser/event.hpp"

namespace tlscope::parser {

// A byte buffer that keeps its allocation between chunks and never zero-fills on growth.
class ByteBuffer {
 public:
  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  void resize(size_t n) {
    reserve(n);
    size_ = n;
  }
  // Gives the memory back (after a chunk grew to hold one huge record).
  void release() {
    data_.reset();
    capacity_ = size_ = 0;
  }
  void reserve(size_t n) {
    if (n <= capacity_) return;
    std::unique_ptr<char[]> bigger(new char[n]);
    if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = n;
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

// An error found inside a chunk; delivery adds the file name and absolute line.
struct ChunkError {
  ErrorKind kind = ErrorKind::kBadHeader;
  uint64_t line = 0;  // 0-based line index within the chunk
  uint64_t byte_offset = 0;
  uint64_t line_count = 1;
  // A run of bad header lines: bad lines that follow (in this chunk or, when the chunk ends
  // inside the run, at the start of the next) join it instead of opening a row of their own.
  bool mergeable = false;
  std::string message;
  size_t excerpt_begin = 0, excerpt_len = 0;  // into the chunk's bytes
};

struct ChunkResult {
  std::vector<Event> events;
  std::vector<ChunkError> errors;
  // Delivery order: true = next error, false = next event.
  std::vector<bool> order_is_error;
  LineAccounting lines;
  // The chunk's last line belongs to a mergeable run (its last error) that is still open.
  bool ends_in_open_run = false;

  void clear() {
    events.clear();
    errors.clear();
    order_is_error.clear();
    lines = LineAccounting{};
    ends_in_open_run = false;
  }
};

struct Chunk {
  ByteBuffer bytes;
  uint64_t base_offset = 0;  // absolute offset of bytes[0] in the source
  bool is_last = false;      // nothing follows: a missing final newline means truncation
  // A record too large to hold: the splitter streamed past it. `bytes` is empty then.
  bool skipped = false;
  uint64_t skipped_bytes = 0;
  uint64_t skipped_lines = 0;
  ChunkResult result;
};

}  // namespace tlscope::parser
