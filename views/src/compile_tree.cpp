// The compile_tree table in depth-first order, with the compiles hung under their frames.
#include "tlscope/views/compile_tree.hpp"

#include <algorithm>
#include <map>

#include "read_rows.hpp"

namespace tlscope::views {

Result<CompileTree> load_compile_tree(const Database& db, size_t max_frames) {
  Result<CompileTree> out;
  CompileTree& tree = out.value;
  Result<std::vector<CompileRow>> compiles = load_compile_rows(db);
  tree.compiles = std::move(compiles.value);
  out.fail(compiles.error);
  if (!db.has_table("compile_tree")) {
    for (size_t i = 0; i < tree.compiles.size(); ++i) tree.without_stack.push_back(i);
    return out;
  }
  std::vector<CompileTreeFrame> frames;
  std::map<int64_t, size_t> index;                   // frame id -> position in frames
  std::map<int64_t, std::vector<int64_t>> children;  // parent (0 = root) -> ids in insert order
  read_rows(db,
            "SELECT id, parent_id, file_id, rank, depth, coalesce(filename, ''), "
            "coalesce(line, 0), coalesce(name, '') FROM compile_tree ORDER BY id",
            out, [&](const Statement& s) {
              CompileTreeFrame f;
              f.id = s.int64(0);
              f.file_id = s.int64(2);
              f.rank = s.int64_or(3, -1);
              f.depth = s.int64(4);
              f.filename = s.text(5);
              f.line = s.int64(6);
              f.name = s.text(7);
              children[s.int64_or(1, 0)].push_back(f.id);
              index[f.id] = frames.size();
              frames.push_back(std::move(f));
            });
  for (size_t i = 0; i < tree.compiles.size(); ++i) {
    auto it = index.find(tree.compiles[i].tree_node_id);
    if (it != index.end())
      frames[it->second].compiles.push_back(i);
    else
      tree.without_stack.push_back(i);
  }
  // Under a frame, compiles in the order the analysis numbered them.
  for (CompileTreeFrame& f : frames)
    std::sort(f.compiles.begin(), f.compiles.end(),
              [&](size_t a, size_t b) { return tree.compiles[a].row < tree.compiles[b].row; });
  tree.frames_total = frames.size();
  // Depth-first order, iteratively so a deep stack cannot overflow ours.
  tree.frames.reserve(std::min(frames.size(), max_frames));
  std::vector<int64_t> todo(children[0].rbegin(), children[0].rend());
  bool any_root = false;
  int64_t last_root_file = 0;
  while (!todo.empty() && tree.frames.size() < max_frames) {
    int64_t id = todo.back();
    todo.pop_back();
    CompileTreeFrame& f = frames[index[id]];
    if (f.depth == 0 && (!any_root || last_root_file != f.file_id)) {
      f.first_of_file = any_root = true;
      last_root_file = f.file_id;
    }
    tree.frames.push_back(std::move(f));
    auto& kids = children[id];
    todo.insert(todo.end(), kids.rbegin(), kids.rend());
  }
  return out;
}

}  // namespace tlscope::views
