// Small read queries over the tlscope schema (docs/schema.md) that the GUI and `tlscope tensor`
// draw from. A table the database lacks reads as empty; a failing query sets `error`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/compile_row.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/ingest_errors.hpp"
#include "tlscope/views/summary.hpp"
#include "tlscope/views/timeline.hpp"

namespace tlscope::views {

using TraceSummary = Summary;

struct TensorRow {
  int64_t event_id = 0;
  int64_t rank = -1;
  std::string compile_id;
  int64_t tensor_id = -1;
  std::string dtype, device, size_json, stride_json;
  std::optional<std::vector<int64_t>> shape;  // empty when a size is symbolic or unreadable
  std::string shape_error;
};

// The viewer's loaders in the older style (rows, with `error` set on failure), until it reads
// the Result loaders of summary.hpp, compile_row.hpp and ingest_errors.hpp directly.
std::optional<TraceSummary> load_summary(const Database& db, std::string* error);
std::vector<CompileRow> load_compiles(const Database& db, std::string* error);
std::vector<IngestErrorRow> load_ingest_errors(const Database& db, size_t limit,
                                               std::string* error);
std::vector<TensorRow> load_tensors(const Database& db, std::string* error);

// "[2, 3, 4]" -> {2, 3, 4}; nullopt with `error` for symbolic ("s0") or malformed sizes.
std::optional<std::vector<int64_t>> shape_from_size_json(const std::string& json,
                                                         std::string* error);

}  // namespace tlscope::views
