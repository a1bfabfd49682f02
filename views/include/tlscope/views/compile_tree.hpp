// The compile tree (the stack trie of dynamo_start stacks, as tlparse draws it): user frames in
// depth-first order, each with the compiles whose stack ends there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/compile_row.hpp"

namespace tlscope::views {

struct CompileTreeFrame {
  int64_t id = 0;
  int64_t file_id = 0;
  int64_t rank = -1;
  int64_t depth = 0;           // 0 for a root frame
  bool first_of_file = false;  // the first root frame of its log file: front ends label the rank
  std::string filename, name;
  int64_t line = 0;
  std::vector<size_t> compiles;  // indexes into CompileTree::compiles, in log order
};

struct CompileTree {
  std::vector<CompileRow> compiles;      // every compile, in log order
  std::vector<CompileTreeFrame> frames;  // depth-first: a parent before its children
  size_t frames_total = 0;               // frames before the cut at max_frames
  std::vector<size_t> without_stack;     // compiles with no dynamo_start stack
};

Result<CompileTree> load_compile_tree(const Database& db, size_t max_frames = SIZE_MAX);

}  // namespace tlscope::views
