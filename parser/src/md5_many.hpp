// Internals shared by the scalar MD5 and the multi-lane md5_many (declared in md5.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tlscope/parser/md5.hpp"

namespace tlscope::parser {

extern const uint32_t kMd5Init[4];
extern const uint32_t kMd5T[64];

// One 64-byte block into `state` (RFC 1321 section 3.4).
void md5_compress(uint32_t state[4], const uint8_t* block);

}  // namespace tlscope::parser
