// Small read queries over the tlscope schema (docs/schema.md) that the GUI and `tlscope tensor`
// draw from. A table the database lacks reads as empty; a failing query sets `error`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"

namespace tlscope::views {

struct FileRow {
  int64_t id = 0;
  std::string path;
  int64_t rank = -1;
  int64_t lines = 0, events = 0, errors = 0;
  bool completed = false;
};

struct KindCount {
  std::string kind;
  int64_t count = 0;
};

struct TraceSummary {
  std::vector<FileRow> files;
  std::vector<KindCount> kinds;  // events per kind, most frequent first
  int64_t events = 0;
  int64_t errors = 0;  // rows in ingest_errors
};

struct CompileRow {
  int64_t event_id = 0;
  int64_t rank = -1;
  std::string kind;  // compilation_metrics, bwd_compilation_metrics, ...
  std::string compile_id;
  std::string co_name, co_filename;
  int64_t co_firstlineno = -1;
  double duration_us = -1;  // -1 when unknown
  int64_t graph_op_count = -1;
  std::string fail_type, fail_reason;
};

struct IngestErrorRow {
  int64_t id = 0;
  std::string path;  // "" for errors not tied to a file
  int64_t line = -1;
  std::string kind, reason, excerpt;
};

struct TensorRow {
  int64_t event_id = 0;
  int64_t rank = -1;
  std::string compile_id;
  int64_t tensor_id = -1;
  std::string dtype, device, size_json, stride_json;
  std::optional<std::vector<int64_t>> shape;  // empty when a size is symbolic or unreadable
  std::string shape_error;
};

std::optional<TraceSummary> load_summary(const Database& db, std::string* error);
std::vector<CompileRow> load_compiles(const Database& db, std::string* error);
std::vector<IngestErrorRow> load_ingest_errors(const Database& db, size_t limit,
                                               std::string* error);
std::vector<TensorRow> load_tensors(const Database& db, std::string* error);

// "[2, 3, 4]" -> {2, 3, 4}; nullopt with `error` for symbolic ("s0") or malformed sizes.
std::optional<std::vector<int64_t>> shape_from_size_json(const std::string& json,
                                                         std::string* error);

}  // namespace tlscope::views
