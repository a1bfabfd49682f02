// One row per compile id (per rank) with what the pages show about it: its metrics, user frame
// and status. Loaded once per report with a few whole-table queries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sqlite_query.hpp"

namespace tlscope::exporters {

struct CompileInfo {
  std::optional<int64_t> rank;
  std::string compile_id;  // PyTorch form, e.g. "0/1_1"
  int64_t first_event = 0;
  int64_t event_count = 0;
  std::optional<int64_t> compiled_autograd_id, frame_id, frame_compile_id, attempt;
  // From compilation_metrics (has_metrics false when the compile has none).
  bool has_metrics = false;
  std::string co_name, co_filename;
  int64_t co_firstlineno = 0;
  std::string fail_type, fail_reason;
  int64_t restart_count = 0;
  std::optional<int64_t> graph_op_count;
  double duration_us = 0;
  std::string recompile_reason;
  // Innermost user frame of dynamo_start, "file:line in name".
  std::string user_frame;

  std::string status() const;  // "failed", "restarted", "empty", "ok", "no metrics"
};

std::vector<CompileInfo> load_compiles(const Database& db);

}  // namespace tlscope::exporters
