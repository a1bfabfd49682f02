// The "Collectives parity" section (collectives.html, the viewer's ranks panel): per rank and
// graph, each collective op's count in Inductor's schedule against its count in the generated
// code, and issued collectives no wait_tensor waits on (the collective_parity table,
// docs/schema.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct ParityOp {
  std::string op;                    // all_reduce_, wait_tensor, ...
  int64_t scheduled = 0;             // entries in inductor_collective_schedule
  std::optional<int64_t> generated;  // calls in the output code (none: no code was logged)
  std::optional<int64_t> unwaited;   // issued calls in the code no wait_tensor waits on
  bool agrees = true;                // generated == scheduled and nothing unwaited
};

struct ParityGraph {
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;
  int64_t graph = 0;  // 0 for the compile's first scheduled graph, 1 for the next (backward)
  bool has_code = false;
  std::vector<ParityOp> ops;      // in schedule order, then ops only the code has
  int64_t issued = 0, waits = 0;  // in the schedule
  // No op disagrees, nothing is unwaited and the schedule waits at least as often as it issues:
  // the same rule as the collective_parity findings.
  bool agrees = true;
};

struct CollectiveParity {
  Paged<ParityGraph> graphs;  // by rank, then compile and graph
  int64_t mismatched = 0;     // graphs that do not agree (the collective_parity findings)
};

// Reads the collective_parity table; a database without it reads as empty.
Result<CollectiveParity> load_collective_parity(const Database& db, Page graphs = {});

}  // namespace tlscope::views
