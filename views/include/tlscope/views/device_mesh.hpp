// A device mesh and DTensor-style placements (Shard(d) / Replicate() / Partial()): which mesh
// ranks hold each element of a sharded tensor.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct MeshPlacement {
  enum class Kind : uint8_t { kShard, kReplicate, kPartial };
  Kind kind = Kind::kReplicate;
  int dim = -1;  // the tensor dim split by a kShard placement
};

// Ranks are numbered row-major over `shape`, as torch's DeviceMesh(arange(n).reshape(shape)).
struct DeviceMesh {
  std::vector<int64_t> shape;
  std::vector<MeshPlacement> placements;  // one per mesh dim
};

// "2x2" or "2,2" -> {2, 2}; an error for anything else (the value is then empty).
Result<std::vector<int64_t>> parse_mesh_shape(std::string_view text);

// "Shard(0),Replicate()" -> placements; "Partial()" and "Partial(sum)" are accepted.
Result<std::vector<MeshPlacement>> parse_placements(std::string_view text);

// "Shard(0)", "Replicate()", "Partial()".
std::string placement_text(const MeshPlacement& placement);

// The element ranges each rank holds, derived once per tensor. Shards follow torch.chunk:
// chunk size ceil(n / parts); later chunks may be short or empty. Several mesh dims sharding the
// same tensor dim split it in mesh-dim order, as DTensor does.
class MeshOwnership {
 public:
  // An error (and an ownership of no ranks) when the mesh does not fit the tensor.
  static Result<MeshOwnership> build(const DeviceMesh& mesh, const std::vector<int64_t>& shape);

  int rank_count() const { return static_cast<int>(ranges_.size()); }
  // Ranks whose shard contains the element at `index` (one entry per tensor dim), ascending.
  std::vector<int> owners(const std::vector<int64_t>& index) const;
  bool partial() const { return partial_; }
  // The half-open range [lo, hi) of tensor dim `dim` that mesh rank `rank` holds.
  std::pair<int64_t, int64_t> extent(int rank, size_t dim) const {
    const Range& r = ranges_[static_cast<size_t>(rank)][dim];
    return {r.lo, r.hi};
  }

 private:
  struct Range {
    int64_t lo = 0, hi = 0;
  };
  std::vector<std::vector<Range>> ranges_;  // [rank][tensor dim]
  bool partial_ = false;
};

}  // namespace tlscope::views
