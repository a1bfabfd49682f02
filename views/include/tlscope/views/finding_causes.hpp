// Known causes of findings, kept as data: for each finding kind, patterns on the text that names
// the cause (the failed guard, the graph-break reason, the failure), what it means and what to
// try, in one line each. The first row of a kind whose pattern matches wins; a row with an empty
// pattern is the kind's own hint, for findings no pattern explains. A kind with no rows at all
// (one added since) still gets a generic hint from its row in finding_kinds.hpp.
#pragma once

#include <string>
#include <string_view>

namespace tlscope::views {

// X(kind, pattern, meaning, try_this): `pattern` is one or more substrings separated by '|',
// matched case-sensitively against the finding's sentence (finding_words.hpp) and its detail
// values, one "key=value" line each (a desync's "differs=size").
#define TLSCOPE_FINDING_CAUSES(X)                                                                  \
  X(recompile, "___check_obj_id|ID_MATCH",                                                         \
    "a function, module or other object the frame uses is a new object on each call",              \
    "create it once outside the loop (or compile the module, not a fresh closure)")                \
  X(recompile, "___check_type_id|TYPE_MATCH", "an input changed its Python type between calls",    \
    "pass the same type each call, or compile separate entry points")                              \
  X(recompile, "size mismatch|___check_size|sizes mismatch",                                       \
    "an input's shape changed and the compiled graph was specialised to the old size",             \
    "mark the dim dynamic (torch._dynamo.mark_dynamic) or pad inputs to a few fixed sizes")        \
  X(recompile, "stride mismatch",                                                                  \
    "an input arrived with a different memory layout (e.g. a transposed or sliced view)",          \
    "call .contiguous() before the compiled function, or keep one layout")                         \
  X(recompile, "dtype mismatch", "an input arrived in a different dtype",                          \
    "cast inputs to one dtype before the call")                                                    \
  X(recompile, "device mismatch", "an input moved to another device", "keep inputs on one device") \
  X(recompile, "requires_grad mismatch", "an input's requires_grad flipped between calls",         \
    "keep requires_grad the same, or compile inference under torch.no_grad() separately")          \
  X(recompile, "___check_global_state|GLOBAL_STATE|grad_mode",                                     \
    "global state the graph depends on changed (grad mode, autocast, default dtype)",              \
    "set that state once around the loop instead of toggling it per call")                         \
  X(recompile, "len(|___dict_contains|LIST_LENGTH|DICT_LENGTH|DICT_KEYS",                          \
    "a list or dict input changed its length or keys",                                             \
    "pass containers of a fixed structure, or tensors instead")                                    \
  X(recompile, " == ", "a Python value the graph baked in as a constant changed",                  \
    "pass it as a tensor; for ints and floats see dynamo's specialize_int/specialize_float")       \
  X(recompile, "", "a guard of the previous compile failed, so dynamo compiled the frame again",   \
    "read the failed guard; make that input stable between calls")                                 \
  X(recompile_storm, "",                                                                           \
    "one frame kept recompiling: each call breaks a guard of every earlier compile",               \
    "fix the first recompile's cause (often mark_dynamic on the changing dim)")                    \
  X(cache_limit, "",                                                                               \
    "the frame reached torch._dynamo.config.cache_size_limit and now runs eagerly",                \
    "remove the recompile cause; raise the limit only if the variants are truly needed")           \
  X(graph_break, "Tensor.item()|item() call|capture_scalar_outputs",                               \
    "a tensor is turned into a Python number, which dynamo cannot trace",                          \
    "set torch._dynamo.config.capture_scalar_outputs = True, or keep the value a tensor")          \
  X(graph_break, "Tensor.tolist",                                                                  \
    "a tensor is turned into a Python list, which dynamo cannot trace",                            \
    "keep it a tensor, or move the conversion out of the compiled region")                         \
  X(graph_break, "data dependent|data-dependent|generic_jump|jump on",                             \
    "Python control flow branches on a tensor's value",                                            \
    "use torch.where or torch.cond, or move the branch out of the compiled function")              \
  X(graph_break, "dynamic shape operator|capture_dynamic_output_shape_ops",                        \
    "an op whose output size depends on the data (nonzero, unique, masked_select)",                \
    "set torch._dynamo.config.capture_dynamic_output_shape_ops = True, or avoid the op")           \
  X(graph_break, "print(|BuiltinVariable(print)", "print() inside the compiled region",            \
    "drop the print, or log outside the compiled function")                                        \
  X(graph_break, "graph_break in file|torch._dynamo.graph_break",                                  \
    "an explicit torch._dynamo.graph_break() call", "remove it if the split is no longer wanted")  \
  X(graph_break, "builtin|BuiltinVariable|unsupported C function|non-Tensor",                      \
    "a Python builtin or C function dynamo does not support",                                      \
    "replace it with a torch op, or wrap it with torch.compiler.allow_in_graph")                   \
  X(graph_break, "skip function|skipfiles|inline in skipfiles",                                    \
    "the call goes into code dynamo is told to skip",                                              \
    "move the call out of the compiled region or mark the callee allow_in_graph")                  \
  X(graph_break, "", "dynamo split the graph here and ran the rest eagerly or in a new graph",     \
    "read the break reason; fewer breaks mean bigger graphs and less overhead")                    \
  X(compile_failure, "BackendCompilerFailed",                                                      \
    "the compiler backend raised an error, so the frame fell back to eager",                       \
    "rerun with TORCH_LOGS=+dynamo, or backend='eager' / 'aot_eager' to find the stage")           \
  X(compile_failure, "Unsupported",                                                                \
    "dynamo met code it cannot trace and was told not to break the graph (fullgraph)",             \
    "drop fullgraph=True, or rewrite the unsupported part")                                        \
  X(compile_failure, "", "a compile failed; the frame ran without it",                             \
    "read the failure reason; torch._dynamo.config.suppress_errors hides, not fixes, it")          \
  X(rank_divergence, "the set of compile ids",                                                     \
    "ranks compiled different graphs: some recompiled where others did not",                       \
    "look for inputs whose shapes or values differ by rank; mark those dims dynamic")              \
  X(rank_divergence, "the cache hit/miss", "ranks found different things in the compile caches",   \
    "share one cache directory, or warm it the same way on every rank")                            \
  X(rank_divergence, "the collective schedule",                                                    \
    "ranks' compiled graphs issue different collectives: a hang waiting to happen",                \
    "make every rank trace the same code path; check rank-dependent branches")                     \
  X(rank_divergence, "the graph execution order",                                                  \
    "ranks ran their graphs in a different order or count",                                        \
    "check for rank-dependent control flow or a rank that stopped early")                          \
  X(rank_divergence, "", "ranks that should behave alike did not",                                 \
    "compare the named ranks on the ranks page")                                                   \
  X(spmd_graph_mismatch, "",                                                                       \
    "ranks traced different graphs before Inductor reordered their "                               \
    "collectives, so their collectives may not line up",                                           \
    "make every rank trace the same code and shapes; compare the named node on both ranks")        \
  X(desync, "differs=op",                                                                          \
    "ranks called different collectives at the same step: their code paths diverged",              \
    "find the rank-dependent branch or early return before this collective")                       \
  X(desync, "differs=size", "ranks passed different tensor sizes to one collective",               \
    "check uneven batches or shards on the named ranks (drop_last, padding)")                      \
  X(desync, "differs=dtype", "ranks passed different dtypes to one collective",                    \
    "check autocast or casts that run on some ranks only")                                         \
  X(desync, "", "ranks disagreed on a collective (op, size or dtype)",                             \
    "check that every rank passes the same shapes and dtypes")                                     \
  X(missing_collective, "timed out",                                                               \
    "some ranks never issued a collective the others waited on: the job hung until the timeout",   \
    "find why the missing ranks stopped early or skipped it (exception, uneven data)")             \
  X(missing_collective, "", "some ranks never reached a collective the others issued",             \
    "check the missing ranks' logs for an exception or early exit")                                \
  X(straggler, "", "one rank arrived late and the others idled waiting for it",                    \
    "look at that rank's input pipeline, host load and compile time before the collective")        \
  X(bad_record, "", "a collective record could not be read, so it is missing from the analysis",   \
    "check the log for truncation or a mixed PyTorch version")                                     \
  X(collective_parity, "unwaited|no wait_tensor",                                                  \
    "the generated code issues a collective that no wait_tensor waits on",                         \
    "check the graph's output code; an unwaited collective can read its result too early")         \
  X(collective_parity, "scheduled|but waits",                                                      \
    "Inductor's collective schedule and the code it generated issue different collectives",        \
    "compare the schedule and the output code on the compile page; file it with a rage bundle")    \
  X(collective_parity, "", "a graph's collectives disagree between its schedule and its code",     \
    "compare the schedule and the output code on the compile page")                                \
  X(shape_specialized, "",                                                                         \
    "a dimension that could have stayed dynamic was fixed to one value (read as a Python int)",    \
    "avoid int()/branching on sizes in the compiled code; use torch._check, or mark_dynamic")

struct FindingCause {
  std::string_view kind, pattern, meaning, try_this;
};

inline constexpr FindingCause kFindingCauses[] = {
#define TLSCOPE_FINDING_CAUSE_ROW(kind, pattern, meaning, try_this) \
  FindingCause{#kind, pattern, meaning, try_this},
    TLSCOPE_FINDING_CAUSES(TLSCOPE_FINDING_CAUSE_ROW)
#undef TLSCOPE_FINDING_CAUSE_ROW
};

// What a finding means and what to try.
struct FindingHint {
  std::string meaning, try_this;
  bool known_cause = false;  // a pattern matched (not just the kind's own hint)
  // The one line every front end prints: "<meaning>; try: <what to try>".
  std::string line() const { return meaning + "; try: " + try_this; }
};

// `text`: the finding's message, and its detail JSON where there is one.
FindingHint hint_for(std::string_view kind, std::string_view text);

}  // namespace tlscope::views
