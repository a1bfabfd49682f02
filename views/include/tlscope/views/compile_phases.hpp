// Where compile time goes (compile_time.html, the viewer's compile-time panel, the summary's
// first lines, `summary --format json`'s "compile_phases"): each compile's timed phases as a
// tree (compile_phase_tree in docs/schema.md), the same tree summed over the run, the phases
// that cost most with the compiles they come from, and the split of compile time into Dynamo
// tracing, backend and cache work.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// One phase of a tree: per compile, or summed over the run (every node of the same path).
struct PhaseTotal {
  std::string name;
  std::string parent;  // the parent phase's name, "" for a root
  std::string path;    // "dynamo > entire_frame_compile > backend_compile"
  int64_t depth = 0;
  double seconds = 0;       // the phase's time, its children's included
  double self_seconds = 0;  // its time outside every child
  int64_t count = 0;        // how many spans were summed
};

struct CompilePhaseTree {
  int64_t file_id = 0;
  std::optional<int64_t> rank;
  std::string compile_id;
  double seconds = 0;              // its roots' time
  std::vector<PhaseTotal> phases;  // depth first, the costlier child first
};

// A phase name's time summed over the run, with the compiles that spent most in it.
struct TopPhase {
  std::string name;
  double seconds = 0;
  int64_t count = 0;
  struct Source {
    int64_t file_id = 0;
    std::optional<int64_t> rank;
    std::string compile_id;
    double seconds = 0;
  };
  std::vector<Source> compiles;  // at most 5, costliest first
};

// Compile time split by what it was spent on. From the phase tree when the log has chromium
// phases, else from compilation_metrics' times (`from_metrics`).
struct CompileTimeSplit {
  int64_t compiles = 0;
  double total_s = 0;    // the compiles' root phases (entire frame compile)
  double backend_s = 0;  // backend_compile (AOT dispatch, Inductor), outermost spans
  double tracing_s = 0;  // the rest: Dynamo's bytecode tracing, guards and bookkeeping
  double cache_s = 0;    // phases named for a cache (lookups, saves), outermost spans
  std::optional<double> cache_saved_s;  // compilation_metrics' remote_cache_time_saved_s, summed
  bool from_metrics = false;
};

struct CompilePhases {
  std::vector<PhaseTotal> run;             // summed over the run, depth first, costlier child first
  std::vector<TopPhase> top;               // the costliest phase names (at most 15)
  std::vector<CompilePhaseTree> compiles;  // the costliest compiles' trees, costliest first
  size_t compile_count = 0;                // compiles with a phase tree
  CompileTimeSplit split;
};

// `max_compiles` bounds the per-compile trees read (a run of thousands of compiles).
Result<CompilePhases> load_compile_phases(const Database& db, size_t max_compiles = 50);

// The run's phase table, one row per phase path summed over the run (depth first): what
// `summary --format json` writes as "compile_phases" and what a comparison of two runs diffs
// phase by phase (key: path).
Result<std::vector<PhaseTotal>> load_phase_totals(const Database& db);

Result<CompileTimeSplit> load_compile_time_split(const Database& db);

// Where each phase of a depth-first tree sits in an icicle (flame graph drawn top down): x0 and
// x1 are fractions of the width, which is the roots' total time; a child starts where its parent
// does and siblings follow one another. The report draws it as HTML, the viewer with ImGui.
struct IcicleCell {
  size_t phase = 0;  // index into the tree's phases
  int64_t depth = 0;
  double x0 = 0, x1 = 0;
};
std::vector<IcicleCell> icicle_layout(const std::vector<PhaseTotal>& phases);

// Compile time worth a line at the top of the summary (seconds).
inline constexpr double kLargeCompileSeconds = 1.0;
// "compile time 3.41 s over 2 compiles: Dynamo tracing 1.20 s, backend 2.21 s, cache 0.10 s;
// remote cache saved 5.00 s" (plain text; "" when there is no compile time).
std::string compile_time_words(const CompileTimeSplit& split);

}  // namespace tlscope::views
