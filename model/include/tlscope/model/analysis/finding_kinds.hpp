// The one list of finding kinds: what the analyses write into `findings.kind`, how serious each
// is, the title every front end shows for it, the report page that explains it and its colour.
// Order is the order every front end lists them in: most serious first. Adding a kind is one row.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace tlscope::model::analysis {

// X(kind, severity, title, page, colour, values)
//   kind      findings.kind
//   severity  findings.severity: error, warning or info
//   title     the heading of the kind's group (summary, report index, viewer findings panel)
//   page      the report page (views::kScreens report_page) that shows the kind in full
//   colour    0xRRGGBB for front ends that colour the kind (viewer, terminal)
//   values    the keys of the kind's findings.detail object, space-separated (docs/schema.md says
//             what each holds); the place columns (ranks, compile_id, frame, file, line, pg_name,
//             seq, ...) are the same for every kind. The sentence is views/'s (finding_words.cpp).
#define TLSCOPE_FINDING_KINDS(X)                                                                   \
  X(compile_failure, "error", "Compile failures", "failures", 0xE05252, "fail_type fail_reason")   \
  X(desync, "error", "Collective desyncs", "collectives", 0xE05252,                                \
    "groups reference differs more last_seq")                                                      \
  X(missing_collective, "error", "Missing collectives (hangs)", "collectives", 0xE05252,           \
    "op timed_out_ranks")                                                                          \
  X(spmd_graph_mismatch, "error", "Ranks compiled different graphs", "collectives", 0xE05252,      \
    "graph world_size node_index reference_node other_rank other_node node_counts reports")        \
  X(straggler, "warning", "Stragglers", "collectives", 0xE0A030, "op lag_us wait_us threshold_us") \
  X(rank_divergence, "warning", "Rank divergence", "ranks", 0xE0A030,                              \
    "aspect differing other_value groups")                                                         \
  X(collective_parity, "warning", "Collectives parity", "collectives", 0xE0A030,                   \
    "graph ops issued waits")                                                                      \
  X(recompile_storm, "warning", "Recompile storms", "recompiles", 0xE0A030, "recompiles frame_id") \
  X(cache_limit, "warning", "Cache size limit hits", "recompiles", 0xE0A030,                       \
    "evidence cache_size limit")                                                                   \
  X(recompile, "warning", "Recompiles", "recompiles", 0xD0C040,                                    \
    "failed_guard prev_compile_id input property index expected actual")                           \
  X(graph_break, "warning", "Graph breaks", "graph_breaks", 0xD0C040,                              \
    "reason source resume_compile_id")                                                             \
  X(shape_specialized, "warning", "Dynamic dims specialized", "compiles", 0xD0C040,                \
    "symbol value sources reason")                                                                 \
  X(bad_record, "warning", "Unreadable collective records", "collectives", 0x9A9A9A,               \
    "event_id problem")

enum class FindingKind {
#define TLSCOPE_FINDING_KIND_ENUM(kind, severity, title, page, colour, values) kind,
  TLSCOPE_FINDING_KINDS(TLSCOPE_FINDING_KIND_ENUM)
#undef TLSCOPE_FINDING_KIND_ENUM
};

struct FindingKindInfo {
  FindingKind id;
  std::string_view kind, severity, title, page;
  std::string_view values;  // findings.detail keys, space-separated
  uint32_t colour;
};

inline constexpr std::array kFindingKinds = {
#define TLSCOPE_FINDING_KIND_ROW(kind, severity, title, page, colour, values) \
  FindingKindInfo{FindingKind::kind, #kind, severity, title, page, values, colour},
    TLSCOPE_FINDING_KINDS(TLSCOPE_FINDING_KIND_ROW)
#undef TLSCOPE_FINDING_KIND_ROW
};

constexpr const FindingKindInfo& finding_kind(FindingKind id) {
  return kFindingKinds[static_cast<size_t>(id)];
}

// The row of findings.kind `kind`, or nullptr for a kind this build does not know.
constexpr const FindingKindInfo* find_finding_kind(std::string_view kind) {
  for (const FindingKindInfo& k : kFindingKinds)
    if (k.kind == kind) return &k;
  return nullptr;
}

}  // namespace tlscope::model::analysis
