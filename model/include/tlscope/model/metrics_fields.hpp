// Every field of PyTorch's CompilationMetrics record (torch/_dynamo/utils.py, 2.3 to 2.14, and the
// backward and runtime variants) tlscope knows, one list. The record is kept whole in
// events.metadata whatever it holds; a compile's page lists its fields, and flags those not named
// here as new to tlscope (a newer PyTorch's), so nothing is dropped unseen.
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>

namespace tlscope::model {

inline constexpr std::string_view kKnownMetricsFields[] = {
    // identity
    "compile_id", "frame_key", "co_name", "co_filename", "co_firstlineno", "is_forward",
    "is_runtime", "log_format_version",
    // caches and guards
    "cache_size", "accumulated_cache_size", "guard_count", "shape_env_guard_count",
    "guard_latency_us", "has_guarded_code",
    // graph
    "graph_op_count", "graph_node_count", "graph_input_count", "graph_node_shapes",
    "num_graph_breaks", "ir_count", "param_numel", "param_bytes", "param_count",
    // outcome
    "fail_type", "fail_reason", "fail_user_frame_filename", "fail_user_frame_lineno",
    "restart_reasons", "recompile_reason", "recompile_user_contexts", "stack_trace",
    "exception_stack_trace", "non_compliant_ops", "compliant_custom_ops", "cudagraph_skip_reason",
    // times
    "start_time", "start_time_us", "end_time_us", "duration_us", "elapsed_time",
    "entire_frame_compile_time_s", "backend_compile_time_s", "inductor_compile_time_s",
    "code_gen_time_s", "dynamo_time_before_restart_s", "dynamo_compile_time_before_restart_us",
    "dynamo_cumulative_compile_time_us", "aot_autograd_cumulative_compile_time_us",
    "inductor_cumulative_compile_time_us", "inductor_code_gen_cumulative_compile_time_us",
    "backward_cumulative_compile_time_us", "triton_compile_time_us",
    "triton_kernel_compile_times_us", "runtime_cudagraphify_time_us",
    "runtime_triton_autotune_time_us", "compile_time_autotune_time_us", "gc_time_us",
    "pre_grad_pass_time_us", "post_grad_pass_time_us", "joint_graph_pass_time_us",
    "distributed_ephemeral_timeout_us", "structured_logging_overhead_s",
    "structured_logging_overhead_us",
    // remote caches and PGO
    "remote_cache_time_saved_s", "remote_cache_version", "remote_fx_graph_cache_get_time_ms",
    "remote_fx_graph_cache_put_time_ms", "remote_fx_graph_cache_get_time_us",
    "remote_fx_graph_cache_put_time_us", "inductor_fx_remote_cache_hit_count",
    "inductor_fx_remote_cache_miss_count", "inductor_fx_remote_cache_backend_type",
    "inductor_fx_remote_cache_hit_keys", "inductor_fx_remote_cache_miss_keys", "num_triton_bundles",
    "pgo_put_remote_code_state_time_us", "pgo_get_remote_code_state_time_us", "feature_usage",
    // configuration and environment
    "dynamo_config", "inductor_config", "compiler_config", "config_suppress_errors",
    "config_inline_inbuilt_nn_modules", "specialize_float", "python_version", "cuda_version",
    "triton_version", "torch_version", "torch_git_version", "torch_cuda_version",
    "inline_inbuilt_nn_modules_candidate",
    // float tensorification
    "tensorify_float_attempt", "tensorify_float_success", "tensorify_float_failure"};

inline constexpr bool is_known_metrics_field(std::string_view name) {
  return std::find(std::begin(kKnownMetricsFields), std::end(kKnownMetricsFields), name) !=
         std::end(kKnownMetricsFields);
}

}  // namespace tlscope::model
