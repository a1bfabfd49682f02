// MD5 (RFC 1321) for the has_payload field of trace records.
#pragma once
#include <string>
#include <string_view>

namespace tlrt {
// Lowercase hex digest of the bytes of `data`.
std::string md5_hex(std::string_view data);
}  // namespace tlrt
