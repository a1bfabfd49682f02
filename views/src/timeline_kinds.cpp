// Which kind (and so which colour) a phase name or collective op belongs to.
#include "tlscope/views/timeline_kinds.hpp"

#include <cctype>
#include <string>

namespace tlscope::views {

namespace {

bool has(std::string_view s, std::string_view part) {
  return s.find(part) != s.npos;
}

}  // namespace

PhaseKind classify_phase(std::string_view original) {
  std::string name(original);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Most specific first: "fx_graph_cache_miss" is cache work inside inductor, and
  // "inductor_codegen" is code generation.
  if (has(name, "cache")) return PhaseKind::cache;
  if (has(name, "codegen") || has(name, "code_gen") || has(name, "async_compile") ||
      has(name, "compile_file") || has(name, "triton") || has(name, "scheduler"))
    return PhaseKind::codegen;
  if (has(name, "backend_compile")) return PhaseKind::backend;
  if (has(name, "inductor") || has(name, "compile_fx") || has(name, "post_grad") ||
      has(name, "pre_grad") || has(name, "graphlowering"))
    return PhaseKind::inductor;
  if (has(name, "aot") || has(name, "autograd") || has(name, "joint_graph") ||
      has(name, "min_cut") || has(name, "fake_tensor_prop"))
    return PhaseKind::aot;
  if (has(name, "dynamo") || has(name, "frame_compile") || has(name, "compile_inner") ||
      has(name, "bytecode") || has(name, "build_guards") || has(name, "compile_attempt") ||
      has(name, "_compile"))
    return PhaseKind::dynamo;
  return PhaseKind::other_phase;
}

CollectiveKind classify_collective(std::string_view op) {
  if (has(op, "reduce_scatter")) return CollectiveKind::reduce_scatter;
  if (has(op, "all_reduce") || has(op, "allreduce")) return CollectiveKind::all_reduce;
  if (has(op, "all_gather") || has(op, "allgather")) return CollectiveKind::all_gather;
  if (has(op, "all_to_all") || has(op, "alltoall")) return CollectiveKind::all_to_all;
  if (has(op, "broadcast")) return CollectiveKind::broadcast;
  if (has(op, "barrier")) return CollectiveKind::barrier;
  if (has(op, "send") || has(op, "recv")) return CollectiveKind::point_to_point;
  return CollectiveKind::other_op;
}

bool is_collective_zone(std::string_view name, CollectiveKind* kind) {
  // The process-group backends of torch.distributed that title their work this way.
  static constexpr std::string_view kBackends[] = {"nccl:", "gloo:", "ucc:", "mpi:", "xccl:"};
  for (std::string_view prefix : kBackends) {
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) continue;
    *kind = classify_collective(name.substr(prefix.size()));
    return true;
  }
  return false;
}

ProblemKind problem_of_finding(std::string_view finding_kind) {
#define TLSCOPE_X(id, finding, label, colour) \
  if (finding_kind == finding) return ProblemKind::id;
  TLSCOPE_PROBLEM_KINDS(TLSCOPE_X)
#undef TLSCOPE_X
  return ProblemKind::none;
}

}  // namespace tlscope::views
