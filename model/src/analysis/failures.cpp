// Failures and restarts: fail_type / fail_reason / user frame of failed compiles, and every entry
// of restart_reasons with the attempt it ended.
#include <string>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

void build_failures_restarts(sqlite3* db) {
  // Hitting the recompile (cache size) limit is logged as a failure (RecompileLimitExceeded) but
  // is no broken compile: cache_limit_hits reports it.
  // A compile can log several metrics records (one per attempt in some versions); the failure is
  // the one of the compile's final record, so each failed compile is reported once. The texts
  // are written clipped (tlscope_clip, cell_text.hpp): those compiles took from that record,
  // and the user frame's file.
  exec(db,
       "INSERT INTO failures(file_id, rank, compile_id, frame, fail_type, fail_reason, "
       "user_file, user_line, event_id) "
       "SELECT c.file_id, c.rank, c.compile_id, c.co_name, c.fail_type, c.fail_reason, "
       "tlscope_clip(m.fail_user_frame_filename), m.fail_user_frame_lineno, m.event_id "
       "FROM compiles c JOIN compilation_metrics_rows m ON m.event_id = c.metrics_event_id "
       "WHERE c.fail_type IS NOT NULL AND c.fail_type NOT LIKE '%LimitExceeded%' "
       "ORDER BY c.first_event_id");
  // Backward compiles report their failures in bwd_compilation_metrics, or in PyTorch 2.3 in
  // aot_autograd_backward_compilation_metrics. Neither record names the frame (the older ones
  // carry no co_name): it is the forward compile's, whose id they share.
  exec(db,
       "INSERT INTO failures(file_id, rank, compile_id, frame, fail_type, fail_reason, "
       "user_file, user_line, event_id) "
       "SELECT m.file_id, COALESCE(f.rank, m.rank), " +
           compile_key_sql("m.compile_id") +
           ", COALESCE(tlscope_clip(m.co_name), (SELECT c.co_name FROM compiles c WHERE c.file_id "
           "= m.file_id "
           "AND c.compile_id = " +
           compile_key_sql("m.compile_id") +
           ")), tlscope_clip(m.fail_type), tlscope_clip(m.fail_reason), "
           "tlscope_clip(m.fail_user_frame_filename), m.fail_user_frame_lineno, m.event_id "
           "FROM compilation_metrics_rows m JOIN files f ON f.id = m.file_id "
           "WHERE m.kind IN ('bwd_compilation_metrics', "
           "'aot_autograd_backward_compilation_metrics') AND m.fail_type IS NOT NULL "
           "ORDER BY m.event_id");
  exec(db,
       "INSERT INTO restarts(file_id, rank, compile_id, frame, attempt, reason, event_id) "
       "SELECT c.file_id, c.rank, c.compile_id, c.co_name, CAST(r.key AS INTEGER), "
       "tlscope_clip(r.value), m.event_id "
       "FROM compiles c JOIN compilation_metrics_rows m ON m.event_id = c.metrics_event_id, "
       "json_each(CASE WHEN json_valid(m.restart_reasons) THEN m.restart_reasons "
       "ELSE '[]' END) r ORDER BY c.first_event_id, r.key");
}

}  // namespace tlscope::model::analysis
