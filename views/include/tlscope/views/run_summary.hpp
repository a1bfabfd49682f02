// What one run did, counted by the definitions of docs/json.md: compiles (attempted, completed,
// failed, unfinished, restarts), recompiles, graph breaks, per-frame counts and the findings.
// `tlscope summary --format json` prints it and `tlscope compare` puts two side by side; both
// read it from here, so the counts cannot drift apart.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/run_facts.hpp"
#include "tlscope/views/run_records.hpp"

namespace tlscope::views {

inline constexpr const char* kSummarySchema = "tlscope.summary/1";

struct CompileCounts {
  int64_t attempted = 0, completed = 0, failed = 0, unfinished = 0, restarts = 0;
};

// A frame is a code location (file, first line, function), over all ranks.
struct FrameSummary {
  std::string file, function;
  int64_t line = -1;  // -1: not logged
  int64_t compiles = 0, completed = 0, failed = 0;
  std::vector<std::string> recompile_reasons;  // distinct, in log order, as logged
};

struct FindingSummary {
  std::string kind, severity;
  std::vector<int64_t> ranks;
  std::string compile_id;
  std::string fields_json;  // the finding's structured fields, a JSON object ("{}" when none)
  std::string text;         // its one line (several lines for a traceback)
};

struct RunSummary {
  std::optional<std::string> torch_version;
  std::vector<int64_t> ranks;
  CompileCounts compiles;
  int64_t recompiles = 0;
  int64_t graph_break_records = 0, graph_breaks_distinct = 0;
  std::vector<FrameSummary> frames;  // in order of their first compile
  std::vector<FindingSummary> findings;
  bool analysed = false;  // false: the database has no analysis tables
  RunHealth health;
  RunRecords records;  // commit, config, phases, unknown kinds, subgraphs, vLLM
};

// The compiles of `facts` counted by the contract's definitions.
CompileCounts count_compiles(const std::vector<CompileFact>& compiles);

Result<RunSummary> load_run_summary(const Database& db);
// What a summary reads of the compiles and graph breaks, handed on to a reader that needs them
// as well (compare_runs reads them once, not twice).
struct SummaryReads {
  Result<std::vector<CompileFact>> compiles;
  Result<std::vector<GraphBreakFact>> breaks;
};
// The same with the run's environment already read (load_run_environment), for a reader that
// needs it too (compare_runs), and, when `reads` is given, the compiles and graph breaks moved
// into it.
Result<RunSummary> load_run_summary(const Database& db, const Result<RunEnvironment>& env,
                                    SummaryReads* reads = nullptr);

}  // namespace tlscope::views
