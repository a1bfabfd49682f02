// The ranks panel's multi-rank parity sections, the viewer's side of the report's "Collectives
// parity" (collectives.html) and "Graph runtime across ranks" (ranks.html): drawn from the same
// view models, views::CollectiveParity and views::GraphRuntimes.
#pragma once

#include "table_view.hpp"
#include "tlscope/views/collective_parity.hpp"
#include "tlscope/views/graph_runtimes.hpp"

namespace tlscope::gui {

class ParitySections {
 public:
  void draw(const views::CollectiveParity& parity, const views::GraphRuntimes& runtimes);

 private:
  void build(const views::CollectiveParity& parity, const views::GraphRuntimes& runtimes);
  bool built_ = false;
  TableData parity_, runtimes_;
  TableView parity_view_, runtimes_view_;
};

}  // namespace tlscope::gui
