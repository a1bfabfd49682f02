// What the comparison reads of each run (compare.cpp), and the reading of A and B side by side.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compare_compile_texts.hpp"
#include "compare_timeline.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/run_facts.hpp"
#include "tlscope/views/run_summary.hpp"

namespace tlscope::views {

struct RunFacts {
  std::vector<CompileFact> compiles;
  std::vector<GraphBreakFact> breaks;
  std::vector<CacheFact> caches;
  std::vector<PhaseFact> phases;
  std::vector<FindingFact> findings;
  std::vector<CollectiveFact> collectives;
  std::vector<InputFact> inputs;
  CompileTextIndex texts;
  std::map<std::string, std::string> config;  // "scope.key" -> value (run_environment.hpp)
  std::vector<RankWait> waits;
};

// Everything the comparison reads of one run, read on that run's own connection.
struct RunRead {
  Result<RunSummary> summary;
  Status facts_status;
  RunFacts facts;
  Result<CompileSpans> spans;
};

// Reads A and B, on two threads when they are two connections and the machine has two cores.
void read_runs(const Database& db_a, const Database& db_b, RunRead& ra, RunRead& rb);

}  // namespace tlscope::views
