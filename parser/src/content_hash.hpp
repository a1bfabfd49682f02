// A fast streaming 64-bit hash of a source's bytes, for spotting the same log given twice. Not
// cryptographic. Four independent multiply lanes over 32-byte stripes keep it well above the
// parser's own speed; the value depends only on the bytes, never on how reads were split.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tlscope::parser {

class ContentHash {
 public:
  void update(const char* data, size_t len);
  uint64_t finish() const;

 private:
  void stripe(const char* p);
  uint64_t lanes_[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull,
                        0x082efa98ec4e6c89ull};  // digits of pi: arbitrary, fixed
  uint64_t length_ = 0;
  char tail_[32];
  size_t tail_len_ = 0;
};

}  // namespace tlscope::parser
