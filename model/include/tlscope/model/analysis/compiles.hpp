// Compiles, the compile tree (stack trie of dynamo_start stacks) and each compile's directory.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tlscope::model::analysis {

struct CompileRow {
  int64_t id = 0;
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;  // PyTorch form without the attempt: "0/1", "!0/3/0"
  std::string status;      // ok, failed, empty, restarted, no_metrics
  std::string co_name;
  int64_t attempts = 1;
  std::optional<double> duration_us;
  std::optional<std::string> fail_type;
};

struct CompileTreeNode {
  int64_t id = 0;
  std::optional<int64_t> parent_id;
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  int64_t depth = 0;
  std::string filename, name;
  int64_t line = 0;
  std::vector<CompileRow> compiles;  // compiles whose stack ends at this frame, in log order
};

// Nodes in depth-first order (a parent before its children, siblings in first-seen order).
std::vector<CompileTreeNode> load_compile_tree(sqlite3* db);

std::vector<CompileRow> load_compiles(sqlite3* db);

// The slowest compiles by duration, longest first.
std::vector<CompileRow> slowest_compiles(sqlite3* db, int limit);

struct DirectoryEntry {
  int64_t event_id = 0;
  int64_t line = 0;
  int64_t attempt = 0;
  std::string kind, name, category;  // category: graph, guards, code, artifact, metrics, tensor
  std::optional<int64_t> payload_id, payload_size;
};

// Everything one compile logged (compiles.id), in log order.
std::vector<DirectoryEntry> load_compile_directory(sqlite3* db, int64_t compile_row);

}  // namespace tlscope::model::analysis
