// What compiles cost: fx_graph_cache / aotautograd_cache hit, miss and bypass per compile id, and
// compile time per phase from chromium events (B/E pairs) and compilation_metrics.
#include <string>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

void build_compile_costs(sqlite3* db) {
  exec(db,
       "INSERT INTO cache_events(file_id, rank, compile_id, cache, result, event_id) "
       "SELECT a.file_id, COALESCE(f.rank, a.rank), " +
           compile_key_sql("a.compile_id") +
           ", "
           "CASE WHEN a.name LIKE 'fx_graph_cache_%' THEN 'fx_graph' ELSE 'aotautograd' END, "
           "substr(a.name, instr(a.name, 'cache_') + 6), a.event_id "
           "FROM artifacts a JOIN files f ON f.id = a.file_id "
           "WHERE a.name IN ('fx_graph_cache_hit', 'fx_graph_cache_miss', 'fx_graph_cache_bypass', "
           "'aotautograd_cache_hit', 'aotautograd_cache_miss', 'aotautograd_cache_bypass') "
           "ORDER BY a.event_id");
  // Chromium B/E pairs were matched at ingest (dur on the B row). Instant events have no phase.
  exec(
      db,
      "INSERT INTO compile_phases(file_id, rank, compile_id, phase, source, start_us, "
      "duration_us) "
      "SELECT c.file_id, COALESCE(f.rank, c.rank), " +
          compile_key_sql("c.compile_id") +
          ", "
          "c.name, 'chromium', c.ts, c.dur FROM chromium_events c JOIN files f ON f.id = c.file_id "
          "WHERE c.dur IS NOT NULL AND c.compile_id IS NOT NULL AND c.compile_id <> 'None' "
          "ORDER BY c.id");
  // Cumulative phase times from the final metrics record of each compile.
  const char* phases[][2] = {{"dynamo", "m.dynamo_cumulative_compile_time_us"},
                             {"aot_autograd", "m.aot_autograd_cumulative_compile_time_us"},
                             {"inductor",
                              "COALESCE(m.inductor_cumulative_compile_time_us, "
                              "m.inductor_compile_time_s * 1e6)"},
                             {"entire_frame", "m.entire_frame_compile_time_s * 1e6"},
                             {"backend", "m.backend_compile_time_s * 1e6"}};
  // The phase is bound; each expression is a fixed one over the metrics columns (SQL of this
  // file, no value), so it is written into the statement.
  for (auto& [phase, expr] : phases) {
    Statement insert(db, std::string("INSERT INTO compile_phases(file_id, rank, compile_id, phase, "
                                     "source, start_us, duration_us) SELECT c.file_id, c.rank, "
                                     "c.compile_id, ?1, 'metrics', m.start_time_us, ") +
                             expr +
                             " FROM compiles c JOIN compilation_metrics_rows m ON m.event_id = "
                             "c.metrics_event_id WHERE " +
                             expr + " IS NOT NULL ORDER BY c.first_event_id");
    insert.bind(1, phase).run();
  }
}

}  // namespace tlscope::model::analysis
