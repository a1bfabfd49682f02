// When each compile of a comparison ran (compare_timeline.hpp): a compile's span is the extent of
// its chromium phases (compile_phases, source chromium), measured from the start of the run its
// file belongs to (timeline_runs.hpp), the origin every timeline of tlscope uses.
#include "compare_timeline.hpp"

#include <algorithm>
#include <map>

#include "read_rows.hpp"
#include "tlscope/views/timeline_runs.hpp"

namespace tlscope::views {

Result<CompileSpans> read_compile_spans(const Database& db) {
  Result<CompileSpans> out;
  if (!db.has_table("compile_phases")) return out;
  Result<TraceRuns> runs = load_trace_runs(db);
  if (!runs.ok()) {
    out.fail(runs.error);
    return out;
  }
  read_rows(db,
            "SELECT file_id, compile_id, min(start_us), max(start_us + duration_us) "
            "FROM compile_phases WHERE source = 'chromium' AND compile_id IS NOT NULL AND "
            "start_us IS NOT NULL AND duration_us IS NOT NULL GROUP BY file_id, compile_id",
            out, [&](const Statement& s) {
              const int64_t file = s.int64(0);
              const double origin = runs.value.origin_us(runs.value.run_of(file));
              out.value[{file, s.text(1)}] = {s.real(2) - origin, s.real(3) - origin};
            });
  return out;
}

void time_compile_pairs(const CompileSpans& sa, const CompileSpans& sb, Comparison& c) {
  auto place = [](const CompileSpans& spans, int64_t file, const std::optional<std::string>& id,
                  double& start, double& end, double& length) {
    if (!id) return;
    auto it = spans.find({file, *id});
    if (it == spans.end()) return;
    start = std::max(0.0, it->second.start_us);
    end = std::max(start, it->second.end_us);
    length = std::max(length, end);
  };
  for (CompilePair& p : c.compiles) {
    place(sa, p.file_a, p.compile_a, p.start_a_us, p.end_a_us, c.timeline_a_us);
    place(sb, p.file_b, p.compile_b, p.start_b_us, p.end_b_us, c.timeline_b_us);
  }
}

}  // namespace tlscope::views
