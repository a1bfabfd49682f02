// Chunk cutting. A cut goes just before a line whose first byte is not whitespace: such a line
// always ends the previous record (payload lines start with TAB, blank lines never end a payload),
// so no record spans two chunks.
#include "chunk_splitter.hpp"

#include <algorithm>
#include <cstring>

namespace tlscope::parser {
namespace {

inline bool starts_record(char c) {
  return c != '\t' && c != ' ' && c != '\n' && c != '\r' && c != '\v' && c != '\f';
}

// Last cut position in buf[floor, size): an index i+1 where buf[i] == '\n' and buf[i+1] starts a
// record. 0 if none.
size_t last_cut(const char* buf, size_t floor, size_t size) {
  if (size < 2) return 0;
  size_t i = size - 1;  // buf[i] is the newline candidate; it needs a following byte
  while (i > floor) {
    const void* nl = memrchr(buf + floor, '\n', i - floor);
    if (!nl) return 0;
    i = static_cast<size_t>(static_cast<const char*>(nl) - buf);
    if (starts_record(buf[i + 1])) return i + 1;
  }
  return 0;
}

// First cut position in buf[0, size) given whether the byte before buf[0] was a newline.
size_t first_cut(const char* buf, size_t size, bool after_newline, bool& found) {
  found = true;
  if (after_newline && size > 0 && starts_record(buf[0])) return 0;
  size_t i = 0;
  while (i + 1 < size) {
    const void* nl = std::memchr(buf + i, '\n', size - 1 - i);
    if (!nl) break;
    i = static_cast<size_t>(static_cast<const char*>(nl) - buf);
    if (starts_record(buf[i + 1])) return i + 1;
    ++i;
  }
  found = false;
  return size;
}

uint64_t count_newlines(const char* p, size_t n) {
  return static_cast<uint64_t>(std::count(p, p + n, '\n'));
}

}  // namespace

ChunkSplitter::ChunkSplitter(ByteSource& source, const ReaderOptions& options)
    : source_(source), options_(options) {
  if (options_.chunk_bytes == 0) options_.chunk_bytes = 1;
  if (options_.batch_bytes < options_.chunk_bytes) options_.batch_bytes = options_.chunk_bytes;
}

bool ChunkSplitter::read_more(ByteBuffer& buf, size_t want) {
  if (eof_) return false;
  want = std::min(want, options_.chunk_bytes);
  // Grow geometrically: a buffer growing for one huge record must not be copied per read. A read
  // fills the room there is, so a small file never makes the buffer larger than 64 KiB.
  if (buf.capacity() == buf.size())
    buf.reserve(std::max(buf.size() + std::min(want, size_t{64} << 10), 2 * buf.capacity()));
  want = std::min(want, buf.capacity() - buf.size());
  long n = source_.read(buf.data() + buf.size(), want, read_error_);
  if (n <= 0) {
    eof_ = true;  // on error read_error_ is set; the bytes before it are still parsed
    return false;
  }
  hash_.update(buf.data() + buf.size(), static_cast<size_t>(n));
  buf.resize(buf.size() + static_cast<size_t>(n));
  offset_ += static_cast<uint64_t>(n);
  return true;
}

bool ChunkSplitter::next(Chunk& chunk) {
  ByteBuffer& buf = chunk.bytes;
  // A buffer that grew for one huge record is not kept for ordinary chunks.
  if (buf.capacity() > 4 * options_.batch_bytes) buf.release();
  buf.resize(0);
  // A first read's worth, not a whole batch: read_more grows the buffer geometrically for a large
  // file, and a folder of 100,000 small or empty rank files must not map and unmap a 4 MiB buffer
  // for each of them.
  buf.reserve(carry_.size() + std::min(options_.batch_bytes, size_t{64} << 10));
  if (carry_.size() > 0) std::memcpy(buf.data(), carry_.data(), carry_.size());
  buf.resize(carry_.size());
  carry_.resize(0);
  chunk.base_offset = chunk_offset_;
  chunk.skipped = false;
  chunk.skipped_bytes = chunk.skipped_lines = 0;

  size_t target = options_.batch_bytes;
  size_t scanned = 0;  // no cut exists in buf[0, scanned)
  while (true) {
    while (buf.size() < target && read_more(buf, target - buf.size())) {
    }
    if (eof_) {
      if (buf.size() == 0) return false;
      chunk.is_last = true;
      chunk_offset_ += buf.size();
      return true;
    }
    size_t cut = last_cut(buf.data(), scanned, buf.size());
    if (cut > 0) {
      carry_.resize(buf.size() - cut);
      std::memcpy(carry_.data(), buf.data() + cut, buf.size() - cut);
      buf.resize(cut);
      chunk.is_last = false;
      chunk_offset_ += cut;
      return true;
    }
    // One record fills the whole buffer. Grow for it, up to the record limit.
    if (buf.size() > options_.max_record_bytes) {
      skip_oversized(chunk);
      return true;
    }
    scanned = buf.size() - 1;
    target = buf.size() + std::max(buf.size(), options_.batch_bytes);
  }
}

void ChunkSplitter::skip_oversized(Chunk& chunk) {
  // Stream past the record without keeping it: count its lines, keep only what follows it.
  ByteBuffer& buf = chunk.bytes;
  uint64_t lines = count_newlines(buf.data(), buf.size());
  uint64_t bytes = buf.size();
  bool after_newline = buf.data()[buf.size() - 1] == '\n';
  while (true) {
    buf.resize(0);
    if (!read_more(buf, options_.chunk_bytes)) {
      if (!after_newline) ++lines;  // the record runs into the end of the input, unterminated
      break;
    }
    bool found = false;
    size_t cut = first_cut(buf.data(), buf.size(), after_newline, found);
    lines += count_newlines(buf.data(), cut);
    bytes += cut;
    if (found) {
      carry_.resize(buf.size() - cut);
      std::memcpy(carry_.data(), buf.data() + cut, buf.size() - cut);
      break;
    }
    after_newline = buf.data()[buf.size() - 1] == '\n';
  }
  buf.resize(0);
  chunk.skipped = true;
  chunk.skipped_bytes = bytes;
  chunk.skipped_lines = lines;
  chunk.is_last = eof_ && carry_.size() == 0;
  chunk_offset_ += bytes;
}

}  // namespace tlscope::parser
