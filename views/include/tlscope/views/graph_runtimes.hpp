// The "Graph runtime across ranks" section (ranks.html, the viewer's ranks panel): per graph,
// the fastest and slowest rank by Inductor's runtime estimate and the difference, and the
// graphs some ranks have no estimate for (graph_runtimes, graph_runtime_spread in
// docs/schema.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct GraphRuntimeRow {
  std::string compile_id;
  std::vector<int64_t> ranks;          // ranks with an estimate for this graph
  std::vector<int64_t> missing_ranks;  // ranks with estimates for other graphs but not this one
  int64_t fastest_rank = 0, slowest_rank = 0;
  double fastest_ns = 0, slowest_ns = 0, difference_ns = 0;
};

struct RankGraphCount {
  int64_t rank = 0;
  int64_t graphs = 0;  // graphs with a runtime estimate on this rank
};

struct GraphRuntimes {
  std::vector<RankGraphCount> graph_counts;  // by rank
  bool counts_differ = false;                // not every rank estimated the same number of graphs
  std::vector<std::string> uneven_graphs;    // graphs missing on some rank, in log order
  Paged<GraphRuntimeRow> graphs;             // in log order
};

Result<GraphRuntimes> load_graph_runtimes(const Database& db, Page graphs = {});

}  // namespace tlscope::views
