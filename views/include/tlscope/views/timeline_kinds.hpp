// What the colours on the timelines mean: one kind per compile phase and per collective op, each
// with a label and a colour, plus the problem kinds drawn as markers. One table each, read by the
// report's legend and data file and by the viewer, so both colour a zone the same way.
#pragma once

#include <cstdint>
#include <string_view>

namespace tlscope::views {

// Colours are 0xRRGGBB.
// X(id, label, colour)
#define TLSCOPE_PHASE_KINDS(X)            \
  X(dynamo, "dynamo tracing", 0x4e79a7)   \
  X(aot, "AOT autograd", 0x59a14f)        \
  X(inductor, "inductor", 0xb07aa1)       \
  X(backend, "backend compile", 0x76b7b2) \
  X(codegen, "code generation", 0xc9a227) \
  X(cache, "cache", 0x9c755f)             \
  X(instant, "instant event", 0x7f8c9a)   \
  X(other_phase, "other phase", 0x8c8c8c)

// A collective's colour says which op it is, apart from every phase colour (both share one axis
// in the viewer) and from the problem reds: more saturated hues the phases leave free, dark
// enough for white labels. tests/views/timeline_format_test.cpp keeps them apart.
#define TLSCOPE_COLLECTIVE_KINDS(X)             \
  X(all_reduce, "all_reduce", 0x4f46d9)         \
  X(all_gather, "all_gather", 0x12946a)         \
  X(reduce_scatter, "reduce_scatter", 0xa447c2) \
  X(broadcast, "broadcast", 0x7f9418)           \
  X(all_to_all, "all_to_all", 0x0d8fa3)         \
  X(point_to_point, "send / recv", 0xc4477f)    \
  X(barrier, "barrier", 0x3e4a5e)               \
  X(other_op, "other collective", 0x5a5249)

// Problems found by the collective analysis (findings kinds), drawn as markers on the lanes of
// the ranks involved. X(id, finding kind, label, colour)
#define TLSCOPE_PROBLEM_KINDS(X)                            \
  X(desync, "desync", "desync", 0xd63b3b)                   \
  X(hang, "missing_collective", "missing (hang)", 0xb71c1c) \
  X(straggler, "straggler", "straggler", 0xe5731c)

enum class PhaseKind : uint8_t {
#define TLSCOPE_X(id, label, colour) id,
  TLSCOPE_PHASE_KINDS(TLSCOPE_X)
#undef TLSCOPE_X
};
enum class CollectiveKind : uint8_t {
#define TLSCOPE_X(id, label, colour) id,
  TLSCOPE_COLLECTIVE_KINDS(TLSCOPE_X)
#undef TLSCOPE_X
};
enum class ProblemKind : uint8_t {
  none,
#define TLSCOPE_X(id, finding, label, colour) id,
  TLSCOPE_PROBLEM_KINDS(TLSCOPE_X)
#undef TLSCOPE_X
};

struct KindStyle {
  std::string_view id;     // stable name, e.g. the report's CSS class
  std::string_view label;  // legend text
  uint32_t rgb;
};

inline constexpr KindStyle kPhaseKinds[] = {
#define TLSCOPE_X(id, label, colour) {#id, label, colour},
    TLSCOPE_PHASE_KINDS(TLSCOPE_X)
#undef TLSCOPE_X
};
inline constexpr KindStyle kCollectiveKinds[] = {
#define TLSCOPE_X(id, label, colour) {#id, label, colour},
    TLSCOPE_COLLECTIVE_KINDS(TLSCOPE_X)
#undef TLSCOPE_X
};
inline constexpr KindStyle kProblemKinds[] = {{"ok", "no problem", 0},
#define TLSCOPE_X(id, finding, label, colour) {#id, label, colour},
                                              TLSCOPE_PROBLEM_KINDS(TLSCOPE_X)
#undef TLSCOPE_X
};

inline const KindStyle& style_of(PhaseKind k) {
  return kPhaseKinds[static_cast<size_t>(k)];
}
inline const KindStyle& style_of(CollectiveKind k) {
  return kCollectiveKinds[static_cast<size_t>(k)];
}
inline const KindStyle& style_of(ProblemKind k) {
  return kProblemKinds[static_cast<size_t>(k)];
}

// From a chromium event name (dynamo_timed phases: "entire_frame_compile", "backend_compile",
// "inductor_compile", "fx_graph_cache_miss", ...).
PhaseKind classify_phase(std::string_view name);
// From collectives.op ("all_reduce", "_allgather_base", "reduce_scatter_tensor", ...).
CollectiveKind classify_collective(std::string_view op);
// A chromium zone that is a process group's span of one collective: PyTorch's backends name
// them "<backend>:<op>" ("nccl:all_reduce", "gloo:broadcast"). False for every other name.
bool is_collective_zone(std::string_view name, CollectiveKind* kind);
// From findings.kind; ProblemKind::none for kinds that are not collective problems.
ProblemKind problem_of_finding(std::string_view finding_kind);

}  // namespace tlscope::views
