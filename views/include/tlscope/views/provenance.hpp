// Inductor provenance per graph (the provenance_* tables): three panes - the pre-grad graph, the
// post-grad graph and the generated code - and, for each pre-grad node, post-grad node and kernel,
// the lines of every pane that selecting it highlights. The report page and the viewer panel
// draw this one struct.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// One provenance graph (provenance_graphs row) with its counts.
struct ProvenanceGraphRow {
  int64_t id = 0, file_id = 0, rank = -1, seq = 0;
  std::string compile_id;  // "" when the records carry none (AOT Inductor)
  std::string mode;        // jit, aot or ""
  int64_t pre_nodes = 0, post_nodes = 0, kernels = 0, errors = 0;
  // "[0/0]", "[0/0] #2" for a compile's second graph, "AOT graph 1" without a compile id.
  std::string label() const;
};

// Every provenance graph, in log order.
Result<std::vector<ProvenanceGraphRow>> load_provenance_graphs(const Database& db);

enum ProvenancePaneId { kPrePane = 0, kPostPane = 1, kCodePane = 2 };
inline constexpr const char* kProvenancePaneTitles[] = {"Pre-grad graph", "Post-grad graph",
                                                        "Generated code"};

struct ProvenanceLine {
  std::string text;
  int64_t number = 0;      // line of its payload (1-based); 0 for a section heading
  std::vector<int> items;  // the items this line defines or calls (index into items)
};

struct ProvenancePane {
  std::string source;  // which record it shows ("before_pre_grad_graph", ...), "" when missing
  std::vector<ProvenanceLine> lines;
};

enum class ProvenanceItemKind { kPreNode, kPostNode, kKernel };

struct ProvenanceItem {
  ProvenanceItemKind kind = ProvenanceItemKind::kKernel;
  std::string name;                    // node name or kernel key as logged
  std::vector<std::string> pre_nodes;  // what it maps to, by name (sorted)
  std::vector<std::string> post_nodes;
  std::vector<std::string> kernels;
  std::array<std::vector<int>, 3> lines;  // per pane: line indexes it highlights (sorted)
  std::string stack;                      // kernels: the logged stack trace, "" if none
};

struct ProvenanceView {
  ProvenanceGraphRow graph;
  std::array<ProvenancePane, 3> panes;
  std::vector<ProvenanceItem> items;  // pre nodes, post nodes, kernels; each group by name
  std::vector<std::string> errors;    // provenance_errors messages
  std::vector<std::string> missing;   // what was not logged ("no post-grad graph")
};

// One graph's panes and items (graph_id: provenance_graphs.id).
Result<ProvenanceView> load_provenance(const Database& db, int64_t graph_id);

// load_provenance for many graphs: its statements are prepared once, when the reader is made
// (the report's thousand provenance pages spent a fifth of their time compiling them again).
class ProvenanceReader {
 public:
  explicit ProvenanceReader(const Database& db);
  Result<ProvenanceView> read(int64_t graph_id);

 private:
  const Database& db_;
  Statement graph_, events_, pane_, node_links_, kernel_links_, stacks_, node_lines_, code_lines_,
      errors_;
};

const char* provenance_item_kind_name(ProvenanceItemKind kind);  // pre, post, kernel

}  // namespace tlscope::views
