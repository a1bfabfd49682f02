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

// Every kind of difference, most serious first (the verdict's order): id, section, and the
// short tag a front end marks a row with ("+break"), whose sentence is difference_text.
#define TLSCOPE_DIFFERENCE_KINDS(X)                            \
  X(failure_added, "compiles", "+failure")                     \
  X(failure_removed, "compiles", "-failure")                   \
  X(failure_changed, "compiles", "failure changed")            \
  X(recompile_added, "compiles", "+recompile")                 \
  X(recompile_removed, "compiles", "-recompile")               \
  X(guard_changed, "compiles", "guard failed")                 \
  X(compile_added, "compiles", "+compile")                     \
  X(compile_removed, "compiles", "-compile")                   \
  X(restarts_changed, "compiles", "restarts")                  \
  X(collective_finding_added, "collectives", "+desync/hang")   \
  X(collective_finding_removed, "collectives", "-desync/hang") \
  X(collective_divergence, "collectives", "streams diverge")   \
  X(collective_wait, "collectives", "wait")                    \
  X(graph_break_added, "graph breaks", "+break")               \
  X(graph_break_removed, "graph breaks", "-break")             \
  X(graph_break_moved, "graph breaks", "break moved")          \
  X(cache_flip, "cache", "cache")                              \
  X(compile_time, "compile time", "time")                      \
  X(graph_node_added, "graphs", "+node")                       \
  X(graph_node_removed, "graphs", "-node")                     \
  X(graph_dtype_changed, "graphs", "dtype")                    \
  X(graph_shape_changed, "graphs", "shape")                    \
  X(guard_added, "guards", "+guard")                           \
  X(guard_removed, "guards", "-guard")                         \
  X(kernel_added, "output code", "+kernel")                    \
  X(kernel_removed, "output code", "-kernel")                  \
  X(output_code_size, "output code", "code size")              \
  X(frame_added, "frames", "+frame")                           \
  X(frame_removed, "frames", "-frame")                         \
  X(frame_moved, "frames", "moved")                            \
  X(torch_version, "environment", "torch")                     \
  X(config_changed, "environment", "config")                   \
  X(world_size, "environment", "ranks")

enum class DifferenceKind {
#define TLSCOPE_DIFFERENCE_ENUM(id, section, tag) id,
  TLSCOPE_DIFFERENCE_KINDS(TLSCOPE_DIFFERENCE_ENUM)
#undef TLSCOPE_DIFFERENCE_ENUM
};

struct DifferenceKindInfo {
  DifferenceKind kind;
  std::string_view name, section;
  std::string_view tag;  // a few characters for a row's marker: "+break", "cache", "-kernel"
};

inline constexpr DifferenceKindInfo kDifferenceKinds[] = {
#define TLSCOPE_DIFFERENCE_INFO(id, section, tag) {DifferenceKind::id, #id, section, tag},
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
  // time (us, 0 when not measured); for compile_time and collective_wait, B's delta (us); for
  // output_code_size, B's change in bytes.
  double weight = 0;
  // What it is about in the aligned lists, so a front end can point at it without reading the
  // subject: an index into Comparison::frames and one into Comparison::compiles (of the first
  // rank it was found on); -1 when it concerns no frame (collectives, environment, a phase's
  // compile time) or no single compile (a frame added, removed or moved). A graph break is about
  // the compile whose trace broke.
  int64_t frame = -1;
  int64_t compile = -1;
  // Every row of the aligned lists it holds on (indices into Comparison::compiles, ascending):
  // the same difference found on several ranks is one difference on each rank's row; a graph
  // break's is the compile that broke (in B for one added or moved, in A for one removed); a
  // phase's compile time's are the few compiles whose own time in it moved the same way by at
  // least a quarter of the change (at most five).
  // Empty when it concerns no compile; `compile`, when set, is the one found first.
  std::vector<int64_t> compile_rows;
};

enum class FrameStatus { matched, only_a, only_b };

struct FrameMatch {
  std::string file, function;
  int64_t line_a = -1, line_b = -1;
  FrameStatus status = FrameStatus::matched;
  int64_t compiles_a = 0, compiles_b = 0, completed_a = 0, completed_b = 0;
  int64_t failed_a = 0, failed_b = 0, recompiles_a = 0, recompiles_b = 0;
};

// One row of the aligned compile lists: the compiles of a frame, per rank, in frame_compile_id
// order, A's k-th beside B's k-th (the pairing the differences use); a compile one run lacks has
// only its side. The ids are each run's own (they may differ: ids that shift are no difference).
struct CompilePair {
  int64_t frame = 0;    // index into Comparison::frames
  size_t index = 0;     // its position in the frame (the subject's "compile #N")
  int64_t rank_a = -1;  // the rank of each side's compile (-1: no rank); they differ when B's
  int64_t rank_b = -1;  // one rank is compared with A's other one
  std::string subject;  // as differences name it
  std::optional<std::string> compile_a, compile_b;  // compile ids ("0/1"); nullopt: side lacks it
  FrameStatus status = FrameStatus::matched;
  // Each side's outcome as the compile trees show it: "completed", its fail_type (or "failed"),
  // "unfinished"; "" on the side that lacks the compile. A recompile is marked apart.
  std::string outcome_a, outcome_b;
  bool recompile_a = false, recompile_b = false;
  // When each side's compile ran (the extent of its chromium phases), in µs from the start of its
  // own run, so both timelines start at 0 (compare_timeline.cpp); -1 when the log did not time it.
  double start_a_us = -1, end_a_us = -1, start_b_us = -1, end_b_us = -1;
  int64_t file_a = -1, file_b = -1;  // each side's log file (files.id), to find its times
};

// Compile time of one phase summed over the compiles both runs completed.
struct PhaseDelta {
  std::string phase;
  double a_us = 0, b_us = 0;
};

struct Comparison {
  RunSummary a, b;
  std::vector<FrameMatch> frames;
  std::vector<CompilePair> compiles;    // by frame, then rank, then index
  std::vector<Difference> differences;  // in kDifferenceKinds order, then by weight
  std::vector<PhaseDelta> phases;       // largest change first
  int64_t timed_compiles = 0;           // compile pairs whose phase times are compared
  bool same_work = true;  // every compile matched with the same outcome: times are comparable
  std::vector<std::string> notes;  // what differs in what the runs ran; what logs cannot tell
  // The length of each run's timeline (µs from its start to the end of its last timed compile):
  // the aligned timelines share one axis from 0 to the longer of the two.
  double timeline_a_us = 0, timeline_b_us = 0;
};

Result<Comparison> compare_runs(const Database& a, const Database& b);

// One sentence per difference (one function per kind, compare_words.cpp).
std::string difference_text(const Difference& d);
// The few lines a reader sees first: the largest differences, each with its cause when logged.
std::vector<std::string> verdict(const Comparison& c, size_t max_lines = 5);

const char* frame_status_name(FrameStatus s);

enum class RunSide { a, b };
// The row of the aligned lists holding `compile_id` of `rank` in run `side`, or null (the
// viewer's synchronised selection: a compile picked in A selects its match in B).
const CompilePair* find_compile_pair(const Comparison& c, RunSide side, int64_t rank,
                                     std::string_view compile_id);

}  // namespace tlscope::views
