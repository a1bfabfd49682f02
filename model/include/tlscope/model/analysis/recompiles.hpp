// Recompiles: per frame, the chain of compiles and the guard failure that caused each, parsed into
// (input, property, expected, actual) where the text allows it; frames that hit the cache limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::model::analysis {

// A guard failure message such as "tensor 'x' size mismatch at index 0. expected 4, actual 8".
// `property` is one of: size, stride, dtype, rank, device, requires_grad, value, identity, type,
// length, shape (a symbolic-shape guard), other.
struct GuardFailure {
  std::optional<std::string> prev_compile_id;  // the "0/0: " prefix of recompile_reasons entries
  std::string text;                            // the message without that prefix
  std::string input;                           // "x" for tensor 'x' or L['x']; "" if unknown
  std::string property = "other";
  std::optional<int64_t> index;  // dim index for size/stride
  std::optional<std::string> expected, actual;
};

GuardFailure parse_guard_failure(std::string_view reason);

// "L['x']" -> "x", "L['self'].w" -> "self.w", "x" -> "x": the user-facing name of a guard source.
std::string input_name(std::string_view source);

}  // namespace tlscope::model::analysis
