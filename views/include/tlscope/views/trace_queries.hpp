// describe_tensor rows and their shapes, for the viewer and `tlscope tensor`. A table the database
// lacks reads as empty; a failing query is the Result's error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"

namespace tlscope::views {

struct TensorRow {
  int64_t event_id = 0;
  int64_t rank = -1;
  std::string compile_id;
  int64_t tensor_id = -1;
  std::string dtype, device, size_json, stride_json;
  std::optional<std::vector<int64_t>> shape;  // empty when a size is symbolic or unreadable
  std::string shape_error;
};

// describe_tensor rows, for the viewer's input layouts and `tlscope tensor --db`.
Result<std::vector<TensorRow>> load_tensors(const Database& db);

// "[2, 3, 4]" -> {2, 3, 4}; an error for symbolic ("s0") or malformed sizes.
Result<std::vector<int64_t>> shape_from_size_json(const std::string& json);

}  // namespace tlscope::views
