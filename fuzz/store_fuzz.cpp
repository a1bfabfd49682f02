// libFuzzer target: arbitrary bytes through the parser and the store (typed tables, stacks,
// chromium pairing, ingest_errors) into an in-memory SQLite database. See docs/fuzzing.md.
#include "fuzz_one_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tlscope::fuzz::store_bytes(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
