// What a matched compile produced, compared as structure (compare.hpp): its FX graph
// (dynamo_output_graph: nodes by op and target, dtypes and sizes per node), its guard set
// (dynamo_guards, else dynamo_cpp_guards_str) and its output code (inductor_output_code: kernels
// and size). Each run's records are indexed once by their MD5 and payload id; a pair's texts are
// read and parsed only when the MD5s differ, so identical compiles cost no payload read.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "difference_list.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct TextRecord {
  std::string kind, md5;
  int64_t payload_id = -1, size = 0;
};

// One compile's records of its last attempt.
struct CompileTexts {
  int64_t attempt = -1;
  std::vector<TextRecord> graphs, guards, code;
};

using CompileTextKey =
    std::tuple<int64_t, int64_t, int64_t>;  // file_id, frame_id, frame_compile_id
using CompileTextIndex = std::map<CompileTextKey, CompileTexts>;

// The records of every Dynamo compile (compiled-autograd graphs are not frames' compiles).
Result<CompileTextIndex> read_compile_texts(const Database& db);

struct TextSides {
  const Database& db_a;
  const Database& db_b;
};

struct TextFinding {
  DifferenceKind kind{};
  std::string what;  // after the compile's subject: "call_function torch.mul", "node `x`", ""
  std::optional<std::string> a, b;
  double weight = 0;
};
struct TextFindings {
  std::vector<TextFinding> list;
  std::map<DifferenceKind, size_t> counts;  // how many of each kind there were, listed or not
};
// A pair's findings by the MD5s of both sides' records, for the other ranks and compiles.
using CompileTextMemo = std::map<std::string, TextFindings>;

// Adds the graph, guard and output-code differences of one compile pair; what it leaves out of a
// long list goes to `notes`.
void compare_compile_texts(const TextSides& dbs, const CompileTexts* a, const CompileTexts* b,
                           const std::string& subject, int64_t rank, DifferenceList& diffs,
                           std::vector<std::string>& notes, CompileTextMemo& memo);

}  // namespace tlscope::views
