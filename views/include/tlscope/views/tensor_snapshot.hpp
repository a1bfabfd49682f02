// Logged tensor values (the sample runtime's `tensor_values` artifacts) and DTensor placements
// (`dtensor_placement`, docs/runtime.md) assembled into one global tensor per logged snapshot:
// each rank's local block placed by its mesh coordinates, Partial() contributions summed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/device_mesh.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// One `tensor_values` payload: {"name", "shape", "dtype", "values": [row-major numbers]}.
struct LoggedValues {
  std::string name, dtype;
  std::vector<int64_t> shape;
  std::vector<double> values;
};

// One `dtensor_placement` payload.
struct LoggedPlacement {
  std::string tensor;
  std::vector<int64_t> mesh_shape;
  std::vector<std::string> mesh_dim_names;
  std::vector<std::string> placement_texts;  // as logged: "Shard(1)", "Partial(sum)"
  std::vector<MeshPlacement> placements;
  std::vector<int64_t> global_shape, local_shape, rank_coords;
};

// `source` names the record in the error ("rank0.log:12: ..."). The value is meaningful only
// when ok().
Result<LoggedValues> parse_logged_values(std::string_view json, const std::string& source);
Result<LoggedPlacement> parse_logged_placement(std::string_view json, const std::string& source);

// What one rank logged for a snapshot.
struct RankValues {
  int64_t rank = -1;  // the log's rank (-1 when unknown)
  LoggedValues values;
  std::optional<LoggedPlacement> placement;
  std::string source;  // file:line of the tensor_values record
};

// A block of the global tensor and who holds it: [lo, hi) per tensor dim.
struct ShardBlock {
  int mesh_rank = 0;
  int64_t rank = -1;                 // the log rank that reported it (-1: no rank logged it)
  std::vector<int64_t> mesh_coords;  // per mesh dim
  std::vector<int64_t> lo, hi;
};

struct TensorSnapshot {
  std::string name, dtype;
  int occurrence = 1;                        // 1 = the first time this name was logged on a rank
  std::vector<int64_t> shape;                // the global shape
  std::vector<double> values;                // global, row-major (NaN where no rank supplied one)
  std::optional<DeviceMesh> mesh;            // set when the ranks logged a placement
  std::optional<LoggedPlacement> placement;  // the first rank's, for names and texts
  std::vector<ShardBlock> blocks;            // one per mesh rank when sharded
  std::vector<RankValues> ranks;             // as logged, by rank
  bool partial = false;                      // values are sums of Partial() contributions
  int64_t missing = 0;                       // elements no rank supplied
  // Unsharded tensors logged by several ranks: ranks whose values differ from the first rank's.
  std::vector<int64_t> differing_ranks;
  std::vector<std::string> problems;  // replica mismatches, shapes that do not fit, ...
};

// Assembles one snapshot from what each rank logged under the same name and occurrence.
TensorSnapshot assemble_snapshot(std::vector<RankValues> ranks, int occurrence);

}  // namespace tlscope::views
