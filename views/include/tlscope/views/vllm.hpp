// The vLLM screen (vllm.html, the viewer's vllm panel, `summary --format json`'s "vllm"): per
// log file and vLLM compile call, the compilation config, the piecewise compiles grouped by
// compile size or range (cudagraph capture sizes marked) with the graph dumps and artifacts of
// each, and the post-grad passes in order with the line diff each made and its pattern dump
// (vllm_* tables in docs/schema.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct VllmConfigEntry {
  std::string key;    // "" for a config payload that is not a JSON object
  std::string value;  // strings as written, numbers, true/false, arrays/objects as JSON
  std::string type;   // json_each's type: text, integer, real, true, false, null, array, object
};

struct VllmArtifact {
  int64_t event_id = 0;
  int64_t payload_id = 0;  // 0: no payload
  std::string kind;        // artifact, graph_dump
  std::string name;
  std::string role;  // vllm_artifacts.role
};

struct VllmPiecewise {
  int64_t id = 0;
  std::optional<int64_t> index, total, range_start, range_end;
  std::string submod_name;
  bool single_size = false, cudagraph_capture_size = false;
  int64_t event_id = 0;
  std::vector<VllmArtifact> artifacts;  // the records after its start, log order
};

// Piecewise compiles of one compile size ("size 8") or range ("range [1, 8192]").
struct VllmSizeGroup {
  std::string label;
  bool single_size = false, cudagraph_capture_size = false;
  std::vector<VllmPiecewise> piecewise;  // log order
};

struct VllmPass {
  std::optional<int64_t> index;
  std::string name;
  int64_t chain = 0;
  int64_t event_id = 0;
  int64_t payload_id = 0;
  int64_t base_event_id = 0;      // 0: no graph logged before it
  int64_t patterns_event_id = 0;  // 0: no vllm_patterns.<name> dump
  int64_t patterns_payload_id = 0;
  std::optional<int64_t> lines_added, lines_removed;
  std::optional<int64_t> piecewise_id;
  std::string compile_id;
};

struct VllmCall {
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  int64_t index = 0;  // the file's compile calls from 0
  std::string compile_id;
  std::vector<VllmConfigEntry> config;         // key order as written
  std::vector<VllmSizeGroup> groups;           // first-seen order
  std::vector<VllmArtifact> before_piecewise;  // records before any piecewise start
  std::vector<VllmPass> passes;                // log order
  std::vector<VllmArtifact> patterns;          // vllm_patterns.* dumps
  int64_t split_graph_event_id = 0, split_graph_payload_id = 0;
};

struct VllmReport {
  bool present = false;  // the log has vLLM records
  std::vector<VllmCall> calls;
  // A config value of the first call by key ("" when absent).
  std::string config_value(std::string_view key) const;
};

// What load_vllm reads: everything (the vLLM page, the viewer), or all but the records of each
// call and piecewise compile (VllmCall::before_piecewise, ::patterns, ::split_graph_*,
// VllmPiecewise::artifacts), which a run's summary does not show: one row per record, tens of
// thousands in a large log, were most of a summary's vLLM read.
enum class VllmRead { full, without_artifacts };

Result<VllmReport> load_vllm(const Database& db, VllmRead what = VllmRead::full);

// One line of a pass's diff (views of the texts given to pass_diff).
struct VllmDiffLine {
  char op = ' ';  // ' ', '-', '+'
  std::string text;
  size_t old_line = 0, new_line = 0;
};
// The line diff of a graph before and after a pass, with `context` unchanged lines around each
// change (the rest elided as one "..." line with op '@').
std::vector<VllmDiffLine> pass_diff(std::string_view before, std::string_view after,
                                    size_t context = 3);

// The payload texts a pass diff needs: the graph before the pass and after it.
struct VllmPassTexts {
  std::string before, after;
};
Result<VllmPassTexts> load_pass_texts(const Database& db, const VllmPass& pass);

}  // namespace tlscope::views
