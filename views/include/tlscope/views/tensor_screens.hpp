// The tensors screen (tensors.html, tensor/*.html, tensor_values.html, the viewer's tensors
// panel): the input-tensor layouts of every compile, the inputs whose layout changed between
// compiles, the tensors that collectives split over ranks, and the logged tensor values
// (tensor_values / dtensor_placement artifacts) assembled into snapshots. Each also yields the
// TensorGridInput that draws it, so every front end draws the same matrix of matrices.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/tensor_grid.hpp"
#include "tlscope/views/tensor_snapshot.hpp"

namespace tlscope::views {

// ---- Input tensor layouts (analysis table `tensors`) ------------------------------------------

// One distinct (dtype, size, stride) of the compiles' input tensors, with an example.
struct TensorLayout {
  std::string dtype;
  std::string size, stride;    // as stored: JSON arrays, symbolic dims as strings ("[\"s0\", 4]")
  std::string device, source;  // of the example (the smallest of each)
  int64_t count = 0;           // input tensors with this layout
  int64_t compiles = 0;        // distinct (file, compile) that had one
  int64_t storage_offset = 0;  // the smallest
  // The example compile: the smallest file id, rank and compile id among them.
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;
};

struct TensorLayouts {
  int64_t tensors = 0;          // input tensors in all
  Paged<TensorLayout> layouts;  // most frequent first
};

Result<TensorLayouts> load_tensor_layouts(const Database& db, Page page = {});

// An input whose size, stride or dtype changed from its frame's previous compile.
struct TensorShapeChange {
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id, prev_compile_id;
  std::string input;  // the input name, else its source
  std::string prev_size, size, prev_stride, stride, prev_dtype, dtype;
};

Result<Paged<TensorShapeChange>> load_tensor_shape_changes(const Database& db, Page page = {});

// ---- Tensors that collectives split over ranks --------------------------------------------------

// The full tensor of an all_gather (its output) or a reduce_scatter (its input), split over the
// group's ranks along dim 0, as the collectives' sizes show; one per (op, full size, group size).
struct CollectiveShard {
  std::string op;                 // all_gather or reduce_scatter
  std::string full_size;          // JSON array text of the full tensor's sizes
  int64_t ranks = 0;              // the process group's size: the number of chunks
  std::string group_desc, dtype;  // of one of its records
  int64_t records = 0;            // collective records of this kind
};

// Most records first; at most `limit`, skipping sizes that give no drawable shape.
Result<std::vector<CollectiveShard>> load_collective_shards(const Database& db, size_t limit);

// ---- Drawing inputs
// ------------------------------------------------------------------------------

// "[2, s0, 4]" -> {"2", "s0", "4"}: items as text, quotes removed.
std::vector<std::string> json_dims(const std::string& json);
// "[2, s0, 4]": the dims of a stored size or stride, for labels.
std::string dims_text(const std::string& json);

// A layout's grid: symbolic dims are drawn with 3 items and named by their symbol.
TensorGridInput layout_grid_input(const std::string& size_json);
// A collective shard's grid: Shard(0) over a 1-D mesh of its ranks, cells showing flat indices.
TensorGridInput shard_grid_input(const CollectiveShard& shard);

// The storage offset of every cell of `grid` (from strides and the tensor's storage offset) as
// its text; ellipsis cells keep their text, and strides that are not plain integers give "".
std::vector<std::string> storage_offsets(const TensorGrid& grid,
                                         const std::vector<std::string>& strides,
                                         int64_t storage_offset);

// ---- Logged tensor values
// ------------------------------------------------------------------------

// One snapshot: the k-th values record of a name on each rank, with that rank's latest
// placement of the same name, assembled into the global tensor.
struct SnapshotEntry {
  TensorSnapshot snapshot;
  std::set<int64_t> file_ids;                          // logs that reported it
  std::set<std::pair<int64_t, std::string>> compiles;  // (file, compile id) of compiled records
};

struct TensorSnapshots {
  size_t total = 0;                    // snapshots in the whole database
  size_t first = 0;                    // index of entries[0] among them (the page's offset)
  std::vector<SnapshotEntry> entries;  // the page, in log order of first appearance
  std::vector<std::string> errors;     // unreadable records, "file:line: why"
  // Indices into entries of the snapshots a compile shows: logged inside it, or named like one of
  // its inputs (input_base_name) on its log file.
  std::vector<size_t> for_compile(int64_t file_id, const std::string& compile_id,
                                  const std::set<std::string>& input_names) const;

  std::map<std::pair<int64_t, std::string>, std::vector<size_t>> by_file_name;
};

// Reads every tensor_values / dtensor_placement artifact in log order (the occurrence count needs
// them all) and assembles the snapshots of `page` only. A database without artifacts has none.
Result<TensorSnapshots> load_tensor_snapshots(const Database& db, Page page = {});

// "w1" from "L['w1']", "L['self'].w1" or "w1": the input name a snapshot name matches.
std::string input_base_name(const std::string& source);

}  // namespace tlscope::views
