// Where kernels and graph nodes appear in logged text: the definition and call lines of a kernel in
// Inductor's generated code (Python wrapper, AOT C++ wrapper or kernel file) and the line that
// defines each node in a printed FX graph. Pure text scanning, unit-tested without a database.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tlscope::model::analysis {

struct KernelLine {
  int line = 0;      // 1-based line of the payload
  int end_line = 0;  // last line of a definition block (== line otherwise)
  std::string role;  // definition, declaration, call, handle
};

// Generated code split into lines, with an index from each identifier to the lines holding it,
// so finding N kernels in a large wrapper reads each line once instead of N times.
class CodeText {
 public:
  explicit CodeText(std::string_view code);
  const std::vector<std::string_view>& lines() const { return lines_; }
  // 0-based indexes of the lines where `kernel` may occur (its first dotted part is a token
  // there, or call_ + it), ascending.
  std::vector<size_t> candidates(std::string_view kernel) const;

 private:
  std::vector<std::string_view> lines_;
  std::unordered_map<std::string_view, std::vector<size_t>> token_lines_;
};

// The lines of `code` that define, declare or call `kernel` (a name such as cpp_fused_gelu_1,
// triton_poi_fused_0 or extern_kernels.addmm). With a debug handle, the call lines are those after
// a "name:handle" comment (Inductor's provenance debug handles) when the code has such comments.
std::vector<KernelLine> find_kernel_lines(const CodeText& code, std::string_view kernel,
                                          std::optional<int64_t> debug_handle);
inline std::vector<KernelLine> find_kernel_lines(std::string_view code, std::string_view kernel,
                                                 std::optional<int64_t> debug_handle) {
  return find_kernel_lines(CodeText(code), kernel, debug_handle);
}

struct NodeLine {
  std::string node;
  int line = 0;
};

// The node defined on each line of a printed FX graph (`name: "f32[..]" = torch...` or
// `name = ...` inside forward), including the forward's parameters.
std::vector<NodeLine> find_node_lines(std::string_view graph);

// The id of the printed graph ("# graph id: 140502189412416" at its end), if logged.
std::optional<int64_t> printed_graph_id(std::string_view graph);

// A kernel key split into the kernel name and its debug handle: "triton_poi_fused_0:3" ->
// ("triton_poi_fused_0", 3); keys without a numeric ":N" suffix are names as they are.
std::pair<std::string, std::optional<int64_t>> split_kernel_key(std::string_view key);

}  // namespace tlscope::model::analysis
