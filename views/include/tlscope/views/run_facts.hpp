// The facts of one run that `summary --format json` counts and `compare` matches: each read by one
// function from today's tables, so a reader of a richer table (typed findings, the torch version
// and config, per-compile phase trees) replaces exactly one function here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"
#include "tlscope/views/run_environment.hpp"

namespace tlscope::views {

enum class CompileOutcome { completed, failed, unfinished };

// One compile: a frame_id/frame_compile_id pair on one rank, whatever its attempts.
struct CompileFact {
  int64_t file_id = 0;
  int64_t rank = -1;                             // -1: no rank
  std::string compile_id;                        // the key, "0/1", "!0/3/0"
  int64_t frame_id = -1, frame_compile_id = -1;  // -1: not logged
  std::string file, function;                    // code location; "" when not logged
  int64_t line = -1;                             // co_firstlineno; -1 when not logged
  int64_t attempts = 1, restarts = 0;            // restarts: attempts beyond the first
  CompileOutcome outcome = CompileOutcome::unfinished;
  bool recompile = false;        // completed, frame_compile_id > 0, replaced a failed entry
  std::string recompile_reason;  // the failed guard as logged, "" when none
  std::string fail_type, fail_reason;
  double duration_us = -1;  // -1: not measured
};

struct GraphBreakFact {
  int64_t rank = -1;
  std::string compile_id, frame, reason, user_file;
  int64_t user_line = -1;
  std::string source;  // artifact, restart_reason, resume_frame (docs/schema.md)
};

struct CacheFact {
  int64_t file_id = 0;
  // cache: fx_graph, aotautograd (their *_cache_{hit,miss,bypass} artifacts) or remote_fx_graph
  // (compilation_metrics' inductor_fx_remote_cache_{hit,miss}_count); result: hit, miss, bypass.
  std::string compile_id, cache, result;
  std::string reason;  // a bypass's cache_bypass_reason, "" when not logged
};

struct PhaseFact {
  int64_t file_id = 0;
  std::string compile_id, phase, source;  // source: chromium or metrics
  double duration_us = 0;
};

// A findings row as written (not merged across ranks).
struct FindingFact {
  std::string kind, severity, pg, compile_id, frame, message;
  int64_t seq = -1;
  std::vector<int64_t> ranks;
};

// One collective of one rank, in the rank's log order.
struct CollectiveFact {
  int64_t rank = -1;
  std::string pg, op, input_sizes, dtype;
  int64_t seq = -1;
  std::string pg_name;     // the group's name as logged (pg is its description when it has one)
  double created_us = -1;  // when the rank issued it (time_created); -1 when not logged
  // How long it waited for the last rank to arrive (read_collective_waits); -1 when unknown.
  double wait_us = -1;
};

// The inputs a compile saw (describe_tensor), for saying whether two runs ran the same thing.
struct InputFact {
  int64_t file_id = 0;
  std::string compile_id, source, dtype, size;
  int requires_grad = -1;  // -1: not logged
};

// How long one rank waited in collectives for the last rank to arrive, summed over its
// collectives that matched across ranks (collective_matches' last arrival minus its own).
struct RankWait {
  int64_t rank = -1;
  double wait_us = 0;
  int64_t collectives = 0;
};

struct RunHealth {
  int64_t files = 0, incomplete_files = 0;
};

// Each returns what the database holds (empty when the table is missing: an older database).
Result<std::optional<std::string>> read_torch_version(const Database& db);
// The same with the run's environment already read (load_run_environment), as a summary does.
Result<std::optional<std::string>> read_torch_version(const Database& db,
                                                      const Result<RunEnvironment>& env);
Result<std::vector<int64_t>> read_ranks(const Database& db);
Result<RunHealth> read_run_health(const Database& db);
Result<std::vector<CompileFact>> read_compiles(const Database& db);
Result<std::vector<GraphBreakFact>> read_graph_breaks(const Database& db);
Result<std::vector<CacheFact>> read_cache_results(const Database& db);
Result<std::vector<PhaseFact>> read_compile_phases(const Database& db);
Result<std::vector<FindingFact>> read_finding_facts(const Database& db);
Result<std::vector<CollectiveFact>> read_collectives(const Database& db);
Result<std::vector<InputFact>> read_compile_inputs(const Database& db);
// Each rank's wait, from its collectives (read_collectives) and the last arrival of each matched
// collective (collective_matches); sets each collective's own wait_us on the way.
Result<std::vector<RankWait>> read_collective_waits(const Database& db,
                                                    std::vector<CollectiveFact>& collectives);

// A graph break counts when PyTorch logged it (its artifact) or a restart names it; a resume
// frame without either is inferred, not a record.
bool is_graph_break_record(const GraphBreakFact& b);

}  // namespace tlscope::views
