// Every record kind (the envelope's event key) tlscope knows, one list: a record of any other
// kind is still kept (events, its payload in payloads) and shown in the report's raw listing, and
// `tlscope summary` counts it among the "records of kinds tlscope does not know". Sources: the
// trace_structured callers of PyTorch (torch/_dynamo, torch/_functorch, torch/_inductor,
// torch/fx/experimental/symbolic_shapes.py, torch/export) and ../shared/docs/torch-trace-format.md.
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>

namespace tlscope::model {

inline constexpr std::string_view kKnownRecordKinds[] = {
    // interned file names, compile starts, graphs
    "str", "dynamo_start", "dynamo_output_graph", "optimize_ddp_split_graph",
    "optimize_ddp_split_child", "compiled_autograd_graph", "aot_forward_graph",
    "aot_backward_graph", "aot_inference_graph", "aot_joint_graph", "inductor_pre_grad_graph",
    "inductor_post_grad_graph", "exported_program",
    // guards and code
    "dynamo_guards", "dynamo_cpp_guards_str", "inductor_output_code", "graph_dump", "dump_file",
    "bytecode_dump",
    // metrics
    "compilation_metrics", "bwd_compilation_metrics", "compilation_metrics_runtime",
    "bwd_compilation_metrics_runtime", "aot_autograd_backward_compilation_metrics",
    // shapes and export
    "symbolic_shape_specialization", "propagate_real_tensors_provenance", "guard_added",
    "guard_added_fast", "create_unbacked_symbol", "create_symbol", "expression_created",
    "missing_fake_kernel", "mismatched_fake_kernel",
    // tensors
    "describe_storage", "describe_tensor", "describe_source",
    // everything else
    "artifact", "memoizer_artifacts", "link", "chromium_event",
    // the run (PyTorch 2.14 on)
    "torch_version", "dynamo_config", "inductor_config", "inductor_spmd_graph_mismatch"};

inline constexpr bool is_known_record_kind(std::string_view kind) {
  return std::find(std::begin(kKnownRecordKinds), std::end(kKnownRecordKinds), kind) !=
         std::end(kKnownRecordKinds);
}

}  // namespace tlscope::model
