// Guards: what a compiled entry assumed about its inputs, checked before reuse; the failure text
// follows Dynamo's phrasing (it becomes the recompile reason).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tlrt/program.hpp"

namespace tlrt {

struct Guard {
  enum class Kind { tensor_match, scalar_eq, dynamic_dim };
  Kind kind = Kind::tensor_match;
  std::string var;
  DType dtype = DType::f32;
  Shape sizes, strides;
  std::vector<bool> dynamic;  // tensor_match: dims that are symbolic (not checked)
  double value = 0;           // scalar_eq
  int dim = 0;                // dynamic_dim
  int user_line = 0;
  std::string user_fn, user_file;

  // The failure text when `env` violates this guard, e.g.
  // "tensor 'x' size mismatch at index 0. expected 4, actual 8".
  std::optional<std::string> check(const Env& env) const;
  // Python-like guard code as dynamo_guards lists it.
  std::string code() const;
};

// dynamo_guards payload (a JSON list written one item per line).
std::string guards_payload(const std::vector<Guard>& guards);
// dynamo_cpp_guards_str payload (TREE_GUARD_MANAGER text).
std::string cpp_guards_tree(const std::vector<Guard>& guards);

}  // namespace tlrt
