// The C++ read API over the analysis tables for the views and front ends: compiles, the compile
// tree, a compile's directory, rank timelines and collective matches.
#include <map>

#include "sql.hpp"
#include "tlscope/model/analysis/collectives.hpp"
#include "tlscope/model/analysis/compiles.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

namespace {

constexpr const char* kCompileColumns =
    "id, file_id, rank, compile_id, COALESCE(status, ''), COALESCE(co_name, ''), "
    "COALESCE(attempts, 1), duration_us, fail_type";

CompileRow read_compile(const Statement& q) {
  CompileRow c;
  c.id = q.int64(0);
  c.file_id = q.int64(1);
  c.rank = q.opt_int64(2);
  c.compile_id = q.text(3);
  c.status = q.text(4);
  c.co_name = q.text(5);
  c.attempts = q.int64(6);
  c.duration_us = q.opt_real(7);
  c.fail_type = q.opt_text(8);
  return c;
}

}  // namespace

std::vector<CompileRow> load_compiles(sqlite3* db) {
  std::vector<CompileRow> out;
  Statement q(db, std::string("SELECT ") + kCompileColumns + " FROM compiles ORDER BY id");
  while (q.step()) out.push_back(read_compile(q));
  return out;
}

std::vector<CompileRow> slowest_compiles(sqlite3* db, int limit) {
  std::vector<CompileRow> out;
  Statement q(db, std::string("SELECT ") + kCompileColumns +
                      " FROM compiles WHERE duration_us IS NOT NULL "
                      "ORDER BY duration_us DESC, id LIMIT ?1");
  q.bind(1, int64_t{limit});
  while (q.step()) out.push_back(read_compile(q));
  return out;
}

std::vector<CompileTreeNode> load_compile_tree(sqlite3* db) {
  std::vector<CompileTreeNode> nodes;
  std::map<int64_t, size_t> index;
  std::map<int64_t, std::vector<int64_t>> children;  // parent (0 = root) -> ids in insert order
  Statement q(db,
              "SELECT id, parent_id, file_id, rank, depth, COALESCE(filename, ''), "
              "COALESCE(line, 0), COALESCE(name, '') FROM compile_tree ORDER BY id");
  while (q.step()) {
    CompileTreeNode n;
    n.id = q.int64(0);
    n.parent_id = q.opt_int64(1);
    n.file_id = q.int64(2);
    n.rank = q.opt_int64(3);
    n.depth = q.int64(4);
    n.filename = q.text(5);
    n.line = q.int64(6);
    n.name = q.text(7);
    children[n.parent_id.value_or(0)].push_back(n.id);
    index[n.id] = nodes.size();
    nodes.push_back(std::move(n));
  }
  Statement c(db, std::string("SELECT ") + kCompileColumns +
                      ", tree_node_id FROM compiles "
                      "WHERE tree_node_id IS NOT NULL ORDER BY id");
  while (c.step()) {
    auto it = index.find(c.int64(9));
    if (it != index.end()) nodes[it->second].compiles.push_back(read_compile(c));
  }
  // Depth-first order, iteratively so a deep stack cannot overflow ours.
  std::vector<CompileTreeNode> ordered;
  ordered.reserve(nodes.size());
  std::vector<int64_t> todo(children[0].rbegin(), children[0].rend());
  while (!todo.empty()) {
    int64_t id = todo.back();
    todo.pop_back();
    ordered.push_back(std::move(nodes[index[id]]));
    auto& kids = children[id];
    todo.insert(todo.end(), kids.rbegin(), kids.rend());
  }
  return ordered;
}

std::vector<DirectoryEntry> load_compile_directory(sqlite3* db, int64_t compile_row) {
  std::vector<DirectoryEntry> out;
  Statement q(db,
              "SELECT event_id, line, attempt, kind, COALESCE(name, kind), category, "
              "payload_id, payload_size FROM compile_directory WHERE compile_row = ?1 "
              "ORDER BY event_id");
  q.bind(1, compile_row);
  while (q.step()) {
    DirectoryEntry e;
    e.event_id = q.int64(0);
    e.line = q.int64(1);
    e.attempt = q.int64(2);
    e.kind = q.text(3);
    e.name = q.text(4);
    e.category = q.text(5);
    e.payload_id = q.opt_int64(6);
    e.payload_size = q.opt_int64(7);
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<RankTimeline> load_rank_timelines(sqlite3* db) {
  std::vector<RankTimeline> out;
  Statement q(db,
              "SELECT rank, pg_name, COALESCE(pg_desc, ''), seq, COALESCE(op, ''), "
              "COALESCE(input_sizes, ''), COALESCE(dtype, ''), COALESCE(state, ''), "
              "COALESCE(bytes, 0), COALESCE(created_us, 0), started_us, completed_us "
              "FROM collectives WHERE rank IS NOT NULL ORDER BY rank, pg_name, seq");
  while (q.step()) {
    int64_t rank = q.int64(0);
    if (out.empty() || out.back().rank != rank) out.push_back({rank, {}});
    CollectiveOp op;
    op.rank = rank;
    op.pg_name = q.text(1);
    op.pg_desc = q.text(2);
    op.seq = q.int64(3);
    op.op = q.text(4);
    op.input_sizes = q.text(5);
    op.dtype = q.text(6);
    op.state = q.text(7);
    op.bytes = q.int64(8);
    op.created_us = q.real(9);
    op.started_us = q.opt_real(10);
    op.completed_us = q.opt_real(11);
    out.back().ops.push_back(std::move(op));
  }
  return out;
}

std::vector<CollectiveMatch> load_collective_matches(sqlite3* db) {
  std::vector<CollectiveMatch> out;
  Statement q(db,
              "SELECT pg_name, COALESCE(pg_desc, ''), seq, COALESCE(op, ''), present_ranks, "
              "missing_ranks, ops_agree, sizes_agree, dtypes_agree, "
              "COALESCE(arrival_skew_us, 0), COALESCE(last_rank, 0), COALESCE(wait_us, 0), "
              "duration_us, bandwidth_gbps FROM collective_matches ORDER BY pg_name, seq");
  while (q.step()) {
    CollectiveMatch m;
    m.pg_name = q.text(0);
    m.pg_desc = q.text(1);
    m.seq = q.int64(2);
    m.op = q.text(3);
    m.present_ranks = int_list(q.text(4));
    m.missing_ranks = int_list(q.text(5));
    m.ops_agree = q.int64(6) != 0;
    m.sizes_agree = q.int64(7) != 0;
    m.dtypes_agree = q.int64(8) != 0;
    m.arrival_skew_us = q.real(9);
    m.last_rank = q.int64(10);
    m.wait_us = q.real(11);
    m.duration_us = q.opt_real(12);
    m.bandwidth_gbps = q.opt_real(13);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace tlscope::model::analysis
