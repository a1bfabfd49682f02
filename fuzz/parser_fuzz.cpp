// libFuzzer target: arbitrary bytes through the streaming parser (bytes -> lines -> records ->
// events), gzip included when the bytes start with its magic. See docs/fuzzing.md.
#include "fuzz_one_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tlscope::fuzz::parse_bytes(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
