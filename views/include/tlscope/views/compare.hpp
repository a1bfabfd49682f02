// Two runs side by side: frames matched by code location (and, when lines moved, by file +
// function + order), compiles within a frame by frame_compile_id order, ranks by number; what
// differs as structured differences {kind, subject, a, b}, worded here, with the verdict and what
// the logs cannot tell. Every compare front end (terminal, markdown, JSON) draws this one model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/run_summary.hpp"

namespace tlscope::views {

inline constexpr const char* kCompareSchema = "tlscope.compare/1";

// Every kind of difference, most serious first (the verdict's order): id, section.
#define TLSCOPE_DIFFERENCE_KINDS(X)            \
  X(failure_added, "compiles")                 \
  X(failure_removed, "compiles")               \
  X(failure_changed, "compiles")               \
  X(recompile_added, "compiles")               \
  X(recompile_removed, "compiles")             \
  X(guard_changed, "compiles")                 \
  X(compile_added, "compiles")                 \
  X(compile_removed, "compiles")               \
  X(restarts_changed, "compiles")              \
  X(collective_finding_added, "collectives")   \
  X(collective_finding_removed, "collectives") \
  X(collective_divergence, "collectives")      \
  X(graph_break_added, "graph breaks")         \
  X(graph_break_removed, "graph breaks")       \
  X(graph_break_moved, "graph breaks")         \
  X(cache_flip, "cache")                       \
  X(compile_time, "compile time")              \
  X(frame_added, "frames")                     \
  X(frame_removed, "frames")                   \
  X(frame_moved, "frames")                     \
  X(torch_version, "environment")              \
  X(world_size, "environment")

enum class DifferenceKind {
#define TLSCOPE_DIFFERENCE_ENUM(id, section) id,
  TLSCOPE_DIFFERENCE_KINDS(TLSCOPE_DIFFERENCE_ENUM)
#undef TLSCOPE_DIFFERENCE_ENUM
};

struct DifferenceKindInfo {
  DifferenceKind kind;
  std::string_view name, section;
};

inline constexpr DifferenceKindInfo kDifferenceKinds[] = {
#define TLSCOPE_DIFFERENCE_INFO(id, section) {DifferenceKind::id, #id, section},
    TLSCOPE_DIFFERENCE_KINDS(TLSCOPE_DIFFERENCE_INFO)
#undef TLSCOPE_DIFFERENCE_INFO
};

const DifferenceKindInfo& kind_info(DifferenceKind kind);

struct Difference {
  DifferenceKind kind{};
  std::string subject;           // what differs: a frame, a compile of it, a phase, a group
  std::optional<std::string> a;  // its value in A; nullopt when A has none
  std::optional<std::string> b;  // and in B
  std::vector<int64_t> ranks;    // ranks it holds on; empty for a single process or whole run
  // Orders one kind's differences, largest first: for a compile only one run has, its compile
  // time (us, 0 when not measured); for compile_time, B's delta (us).
  double weight = 0;
};

enum class FrameStatus { matched, only_a, only_b };

struct FrameMatch {
  std::string file, function;
  int64_t line_a = -1, line_b = -1;
  FrameStatus status = FrameStatus::matched;
  int64_t compiles_a = 0, compiles_b = 0, completed_a = 0, completed_b = 0;
  int64_t failed_a = 0, failed_b = 0, recompiles_a = 0, recompiles_b = 0;
};

// Compile time of one phase summed over the compiles both runs completed.
struct PhaseDelta {
  std::string phase;
  double a_us = 0, b_us = 0;
};

struct Comparison {
  RunSummary a, b;
  std::vector<FrameMatch> frames;
  std::vector<Difference> differences;  // in kDifferenceKinds order, then by weight
  std::vector<PhaseDelta> phases;       // largest change first
  int64_t timed_compiles = 0;           // compile pairs whose phase times are compared
  bool same_work = true;  // every compile matched with the same outcome: times are comparable
  std::vector<std::string> notes;  // what differs in what the runs ran; what logs cannot tell
};

Result<Comparison> compare_runs(const Database& a, const Database& b);

// One sentence per difference (one function per kind, compare_words.cpp).
std::string difference_text(const Difference& d);
// The few lines a reader sees first: the largest differences, each with its cause when logged.
std::vector<std::string> verdict(const Comparison& c, size_t max_lines = 5);

const char* frame_status_name(FrameStatus s);

}  // namespace tlscope::views
