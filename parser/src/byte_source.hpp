// Where a source's bytes come from: a file or stdin through read(), optionally through zlib.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace tlscope::parser {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `cap` bytes into `dst`. Returns the count, 0 at the end, -1 on error (then `error`
  // says why; bytes returned before stay valid).
  virtual long read(char* dst, size_t cap, std::string& error) = 0;
};

// Opens `path` ("-" is stdin). Gzip is used when the data starts with the gzip magic bytes,
// whatever the name. nullptr with `error` set when the file cannot be opened.
std::unique_ptr<ByteSource> open_byte_source(const std::string& path, size_t chunk_bytes,
                                             std::string& error);

}  // namespace tlscope::parser
