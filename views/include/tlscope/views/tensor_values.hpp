// Tensor values for TensorGrid from JSON text: a nested array ([[1,2],[3,4]]) whose nesting gives
// the shape, or {"shape": [...], "values": [flat row-major numbers]}.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct TensorValues {
  std::vector<int64_t> shape;
  std::vector<double> values;  // row-major
};

// `source` names the input in the error ("values.json: ragged array at depth 1 ..."). The value
// is meaningful only when ok().
Result<TensorValues> parse_tensor_values_json(std::string_view json, const std::string& source);

}  // namespace tlscope::views
