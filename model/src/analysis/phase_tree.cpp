// Where compile time goes: the compile's timed phases (PyTorch's dynamo_timed chromium events,
// B/E pairs matched at ingest and complete `X` events) as a tree. A phase's parent is the
// innermost phase of the same process and thread whose time span holds it, as a trace viewer
// stacks them; no list of phase names is assumed, so phases PyTorch adds later nest by
// themselves. A phase without a compile id of its own belongs to the compile of its parent; one
// with another compile's id than its parent's starts that compile's tree. Spans of no compile
// (profiler steps, runtime regions) hold no row, but still bound the phases inside them.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/cell_text.hpp"

namespace tlscope::model::analysis {

namespace {

// Timestamps are float microseconds; an E and its parent's E can carry the same instant.
constexpr double kEdgeUs = 1e-3;

struct Node {
  int64_t id = 0;  // 0: not a phase of any compile (no row)
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id, name, path;
  std::optional<int64_t> parent;
  int64_t depth = 0;
  double start = 0, duration = 0, children = 0;
  int64_t chromium_id = 0;
};

std::string compile_key(std::string id) {
  size_t u = id.find('_');
  return u == std::string::npos ? id : id.substr(0, u);
}

}  // namespace

void build_phase_tree(sqlite3* db) {
  if (!has_rows(db, "chromium_events WHERE dur IS NOT NULL")) return;
  Statement rows(db,
                 "SELECT c.id, c.file_id, COALESCE(f.rank, c.rank), c.pid, c.tid, c.name, c.ts, "
                 "c.dur, c.compile_id FROM chromium_events c JOIN files f ON f.id = "
                 "c.file_id WHERE c.dur IS NOT NULL AND c.dur >= 0 AND c.ts IS NOT NULL "
                 "ORDER BY c.file_id, c.pid, c.tid, c.ts, c.dur DESC, c.id");
  std::vector<Node> nodes;
  std::vector<size_t> stack;  // indexes into nodes, innermost last
  std::optional<int64_t> lane_file, lane_pid, lane_tid;
  int64_t next_id = 1;
  while (rows.step()) {
    const int64_t file = rows.int64(1);
    const std::optional<int64_t> pid = rows.opt_int64(3), tid = rows.opt_int64(4);
    if (lane_file != file || lane_pid != pid || lane_tid != tid) {
      stack.clear();
      lane_file = file, lane_pid = pid, lane_tid = tid;
    }
    Node n;
    n.chromium_id = rows.int64(0);
    n.file_id = file;
    n.rank = rows.opt_int64(2);
    n.name = clip_cell_text(rows.text_view(5));
    n.start = rows.real(6);
    n.duration = rows.real(7);
    while (!stack.empty()) {
      const Node& top = nodes[stack.back()];
      if (n.start >= top.start - kEdgeUs &&
          n.start + n.duration <= top.start + top.duration + kEdgeUs)
        break;
      stack.pop_back();
    }
    const Node* parent = stack.empty() ? nullptr : &nodes[stack.back()];
    std::optional<std::string> own = rows.opt_text(8);
    if (own && *own != "None") n.compile_id = compile_key(*own);
    if (n.compile_id.empty() && parent && parent->id != 0) n.compile_id = parent->compile_id;
    if (!n.compile_id.empty()) {
      n.id = next_id++;
      if (parent && parent->id != 0 && parent->compile_id == n.compile_id) {
        n.parent = parent->id;
        n.depth = parent->depth + 1;
        n.path = parent->path + " > " + n.name;
      } else {
        n.path = n.name;
      }
    }
    if (parent && n.id != 0 && n.parent) nodes[stack.back()].children += n.duration;
    nodes.push_back(std::move(n));
    stack.push_back(nodes.size() - 1);
  }
  Statement insert(db,
                   "INSERT INTO compile_phase_tree(id, file_id, rank, compile_id, parent_id, "
                   "depth, name, path, start_us, duration_us, self_us, chromium_id) VALUES "
                   "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  for (const Node& n : nodes) {
    if (n.id == 0) continue;
    insert.bind(1, n.id).bind(2, n.file_id).bind(3, n.rank).bind(4, n.compile_id);
    insert.bind(5, n.parent).bind(6, n.depth).bind(7, n.name).bind_clipped(8, n.path);
    insert.bind(9, n.start).bind(10, n.duration);
    insert.bind(11, std::max(0.0, n.duration - n.children)).bind(12, n.chromium_id);
    insert.run();
  }
}

}  // namespace tlscope::model::analysis
