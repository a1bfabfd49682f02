// The one compile row every front end shows: one row of the analysis `compiles` table
// (docs/schema.md), one per compile id per log file; the attempts of a compile share it.
// Missing numbers are -1, missing text "".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// -1 (no rank) as an empty optional, for code that takes ranks that way.
inline std::optional<int64_t> rank_opt(int64_t rank) {
  return rank < 0 ? std::nullopt : std::optional<int64_t>(rank);
}

struct CompileRow {
  int64_t row = 0;  // compiles.id
  int64_t file_id = 0;
  int64_t rank = -1;
  std::string compile_id;  // PyTorch form without the attempt: "0/1", "!0/3/0"
  int64_t compiled_autograd_id = -1, frame_id = -1, frame_compile_id = -1;
  int64_t attempts = 1;
  std::string status;  // ok, failed, empty, restarted, no_metrics
  std::string co_name, co_filename;
  int64_t co_firstlineno = 0;
  std::string fail_type, fail_reason, recompile_reason;
  int64_t restart_count = 0;
  int64_t graph_op_count = -1;
  double duration_us = -1;
  int64_t tree_node_id = -1;
  // Its cache lookups (cache_events) in one word: "miss" when any missed, else "bypass" when any
  // was bypassed, else "hit" when all hit; "" without a lookup.
  std::string cache;

  bool failed() const { return !fail_type.empty(); }
  bool cache_hit() const { return cache == "hit"; }
};

// Every compile in log order (by first event). Empty, without error, before analysis.
Result<std::vector<CompileRow>> load_compile_rows(const Database& db);

// The slowest compiles by duration, longest first.
Result<std::vector<CompileRow>> load_slowest_compiles(const Database& db, size_t limit);

}  // namespace tlscope::views
