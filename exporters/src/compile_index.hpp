// One row per compile (per log file) from the analysis `compiles` table, with what the pages
// show about it. Attempts of a compile share its row and its page.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"

namespace tlscope::exporters {

using views::Database;
using views::Statement;

struct CompileInfo {
  int64_t row = 0;  // compiles.id
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;  // PyTorch form without the attempt, e.g. "0/1"
  std::optional<int64_t> compiled_autograd_id, frame_id, frame_compile_id;
  int64_t attempts = 1;
  std::string status;  // ok, failed, empty, restarted, no_metrics
  std::string co_name, co_filename;
  int64_t co_firstlineno = 0;
  std::string fail_type, fail_reason, recompile_reason;
  int64_t restart_count = 0;
  std::optional<int64_t> graph_op_count;
  double duration_us = 0;
  std::optional<int64_t> tree_node_id;
};

std::vector<CompileInfo> load_compiles(const Database& db);

}  // namespace tlscope::exporters
