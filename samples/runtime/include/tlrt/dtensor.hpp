// DTensor-like placement and value dumps: how a tensor is laid out over a device mesh, and the
// numbers of small tensors, as JSON artifacts the viewers can draw (docs/runtime.md).
#pragma once
#include <source_location>
#include <string>
#include <vector>

#include "tlrt/tensor.hpp"

namespace tlrt {

struct Placement {
  std::string tensor;
  std::vector<int64_t> mesh_shape;
  std::vector<std::string> mesh_dim_names;
  std::vector<std::string> placements;  // "Shard(0)", "Replicate()", "Partial(sum)" per mesh dim
  Shape global_shape, local_shape;
  std::vector<int64_t> rank_coords;
};

// Artifact dtensor_placement on the current process's log.
void log_placement(const Placement& p,
                   std::source_location where = std::source_location::current());
// Artifact tensor_values {"name","shape","dtype","values"} (values row-major); at most 4096 values.
void log_tensor_values(const std::string& name, const Tensor& t,
                       std::source_location where = std::source_location::current());

}  // namespace tlrt
