// Cuts a byte stream into chunks of whole records, so chunks can be parsed on separate threads
// with no state carried between them. It also hashes every byte in input order.
#pragma once

#include <string>

#include "byte_source.hpp"
#include "chunk.hpp"
#include "content_hash.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::parser {

class ChunkSplitter {
 public:
  ChunkSplitter(ByteSource& source, const ReaderOptions& options);

  // Fills `chunk` with the next run of whole records (or a skipped oversized record). false when
  // the input is exhausted.
  bool next(Chunk& chunk);

  uint64_t bytes_read() const { return offset_; }
  uint64_t content_hash() const { return hash_.finish(); }
  // Set when reading stopped on an error (I/O, corrupt or cut-short gzip).
  const std::string& read_error() const { return read_error_; }

 private:
  // Appends up to `want` bytes to `buf` with one read(); false at the end or on error.
  bool read_more(ByteBuffer& buf, size_t want);
  void skip_oversized(Chunk& chunk);

  ByteSource& source_;
  ReaderOptions options_;
  ContentHash hash_;
  ByteBuffer carry_;          // bytes read past the last cut, first bytes of the next chunk
  uint64_t offset_ = 0;       // bytes read so far
  uint64_t chunk_offset_ = 0; // absolute offset of the next chunk's first byte
  bool eof_ = false;
  std::string read_error_;
};

}  // namespace tlscope::parser
