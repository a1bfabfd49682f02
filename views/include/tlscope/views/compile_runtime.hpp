// A compile's runtime and autotuning: the fields of its `compilation_metrics_runtime` records
// (written after the compiled code first ran: runtime_triton_autotune_time_us, ...), the
// autotuning fields of its compile-time metrics, each kernel of its `triton_kernel_info`
// artifacts, and the `link` records logged in it. The compile pages and the viewer's compile
// panel draw a CompileRuntime.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct NamedValue {
  std::string name, value;
};

struct RuntimeMetrics {
  std::string kind;  // compilation_metrics_runtime, bwd_compilation_metrics_runtime
  int64_t line = 0;
  std::vector<NamedValue> fields;  // every non-null field but the compile id, in logged order
};

struct KernelAutotune {
  std::string kernel, cache_state;  // cache_state: autotune_cache_state as logged ("" if absent)
  int64_t configs = -1, compile_time_us = -1;  // -1: not logged
};

struct CompileLink {
  std::string name, url;
  int64_t line = 0;
};

struct CompileRuntime {
  std::vector<RuntimeMetrics> runtime;
  std::vector<NamedValue> autotune;  // *autotune* fields of the compile's compile-time metrics
  std::vector<KernelAutotune> kernels;
  std::vector<CompileLink> links;
  bool empty() const {
    return runtime.empty() && autotune.empty() && kernels.empty() && links.empty();
  }
};

// Reads everything once; read() costs no query. Keys are compiles.(file_id, compile_id): the
// compile id without its attempt.
class CompileRuntimeReader {
 public:
  explicit CompileRuntimeReader(const Database& db);
  Result<CompileRuntime> read(int64_t file_id, const std::string& compile_id) const;
  // Links logged outside any compile (file path, name, url), for a front end to list apart.
  const std::vector<std::pair<std::string, CompileLink>>& unattached_links() const {
    return unattached_;
  }

 private:
  using Key = std::pair<int64_t, std::string>;
  std::map<Key, CompileRuntime> by_compile_;
  std::vector<std::pair<std::string, CompileLink>> unattached_;
  std::string error_;
};

// Only the links logged outside any compile (CompileRuntimeReader::unattached_links), for
// index.html, which needs nothing else the reader reads.
using UnattachedLinks = std::vector<std::pair<std::string, CompileLink>>;
Result<UnattachedLinks> load_unattached_links(const Database& db);

}  // namespace tlscope::views
