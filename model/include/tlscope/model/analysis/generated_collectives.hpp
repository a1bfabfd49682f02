// The collectives a generated Inductor wrapper (the `inductor_output_code` payload) calls, read
// off its Python text: `torch.ops._c10d_functional.<op>.<overload>(...)` calls, with the tensor
// each issued collective produces and whether a later `wait_tensor` waits on it. The collectives
// parity analysis compares them with the graph's `inductor_collective_schedule`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::model::analysis {

// "torch.ops._c10d_functional.all_reduce_.default" -> "all_reduce_"; the form the schedule and
// the code share. Text that names no functional collective comes back as written.
std::string collective_op_name(std::string_view qualified);

inline bool is_wait_op(std::string_view op) {
  return op == "wait_tensor";
}

struct GeneratedCollective {
  std::string op;       // collective_op_name form: all_reduce_, wait_tensor, ...
  std::string tensor;   // issued: the buffer it writes (assigned name, out=, else first argument);
                        // wait_tensor: the buffer waited on
  int64_t line = 0;     // 1-based line in the payload
  bool waited = false;  // issued collectives only: a later wait_tensor names `tensor`
};

// Every functional-collective call of `code`, in order. Comments and string literals (the
// `assert_size_stride(..., 'torch.ops._c10d_functional....')` messages) are not calls.
std::vector<GeneratedCollective> scan_generated_collectives(std::string_view code);

}  // namespace tlscope::model::analysis
