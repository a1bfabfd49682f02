// A tlscope database with the real schema (model::create_schema, and the analysis's own DDL for
// compiles) and a few rows written by hand, for view and GUI tests that must not wait for the
// store. Rows go into the tables the ingest writes (chromium_event_rows and
// compilation_metrics_rows: chromium_events and compilation_metrics are views over them), so a
// schema change reaches these tests instead of leaving them on a stale copy. Values come from
// /work/shared/logs/torch: chromium_events.log's three B/E pairs, comp_failure.log's
// compilation_metrics (and its compiles row), simple.log's first describe_tensor.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::test {

inline void exec_sql(sqlite3* db, const std::string& sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string why = msg ? msg : "?";
    sqlite3_free(msg);
    throw std::runtime_error("fixture SQL failed: " + why);
  }
}

// chromium_events.log (file 1, no rank): dynamo > entire_frame_compile > backend_compile, with
// dur = E.ts - B.ts and each B row naming its E event; E rows kept with dur NULL as the schema
// says. The byte offsets are made up (the views read none).
inline const char* kRealRowsSql = R"sql(
INSERT INTO files VALUES(1, 'chromium_events.log', NULL, 0, 5000, 80, 12, 60, 0, 1, 12, 1, 'ab', 1);
INSERT INTO files VALUES(2, 'comp_failure.log', NULL, 0, 9000, 120, 20, 100, 0, 0, 20, 0, 'cd', 1);
INSERT INTO events(id, file_id, line, byte_offset, kind, payload_lines) VALUES
  (1, 1, 1, 0, 'chromium_event', 0), (2, 1, 14, 1300, 'str', 0),
  (3, 1, 15, 1400, 'chromium_event', 0), (4, 1, 30, 2900, 'chromium_event', 0),
  (5, 1, 43, 4200, 'chromium_event', 0), (6, 1, 56, 5500, 'chromium_event', 0),
  (7, 1, 69, 6800, 'chromium_event', 0), (8, 2, 1, 0, 'compilation_metrics', 0),
  (9, 2, 2, 900, 'dynamo_start', 0), (10, 2, 3, 1800, 'describe_tensor', 0),
  (11, 2, 4, 2700, 'describe_tensor', 0);
INSERT INTO ingest_errors VALUES(1, 1, 77, 3000, 1, 'bad_json', 'envelope is not valid JSON',
  'V1206 15:20:14.090000 1543231 torch/_dynamo/utils.py:1288] {"chromium_event": {');
INSERT INTO ingest_errors VALUES(2, NULL, NULL, NULL, 0, 'io', 'missing.log: no such file', '');
INSERT INTO chromium_event_rows(id, event_id, file_id, rank, name, cat, ph, ts, dur, pid, tid,
  compile_id, end_event_id) VALUES
  (1, 1, 1, NULL, 'dynamo', 'dynamo_timed', 'B', 1733527213926572.8, 163100.2, 0, 0, '0/0', 7),
  (2, 3, 1, NULL, 'entire_frame_compile', 'dynamo_timed', 'B', 1733527213928251.2, 157247.8, 0, 0, '0/0', 6),
  (3, 4, 1, NULL, 'backend_compile', 'dynamo_timed', 'B', 1733527214084600.2, 478.3, 0, 0, '0/0', 5),
  (4, 5, 1, NULL, 'backend_compile', 'dynamo_timed', 'E', 1733527214085078.5, NULL, 0, 0, '0/0', NULL),
  (5, 6, 1, NULL, 'entire_frame_compile', 'dynamo_timed', 'E', 1733527214085499.0, NULL, 0, 0, '0/0', NULL),
  (6, 7, 1, NULL, 'dynamo', 'dynamo_timed', 'E', 1733527214089673.0, NULL, 0, 0, '0/0', NULL);
INSERT INTO compilation_metrics_rows(event_id, file_id, rank, kind, compile_id, co_name,
  co_filename, co_firstlineno, graph_op_count, fail_type, fail_reason, duration_us) VALUES
  (8, 2, NULL, 'compilation_metrics', '0/0', 'fn',
   '/data/users/xmfan/a/pytorch/test/dynamo/test_misc.py', 10755, NULL, 'BackendCompilerFailed',
   'backend=''broken_backend'' raised:
RuntimeError: broken backend', NULL);
-- The analysis row of that compile, as `tlscope analyze` writes it.
INSERT INTO compiles(id, file_id, rank, compile_id, frame_id, frame_compile_id, first_event_id,
  attempts, co_name, co_filename, co_firstlineno, status, fail_type, fail_reason,
  graph_op_count, duration_us) VALUES
  (1, 2, NULL, '0/0', 0, 0, 8, 1, 'fn', '/data/users/xmfan/a/pytorch/test/dynamo/test_misc.py',
   10755, 'failed', 'BackendCompilerFailed', 'backend=''broken_backend'' raised:
RuntimeError: broken backend', NULL, NULL);
INSERT INTO describe_tensor(event_id, file_id, rank, compile_id, describer_id, tensor_id, ndim,
  dtype, device, size, stride, json) VALUES
  (10, 2, NULL, '0/0', 0, 0, 4, 'torch.float32', 'device(type=''cuda'', index=0)',
   '[1, 320, 128, 128]', '[5242880, 1, 40960, 320]', '{}'),
  (11, 2, NULL, '0/1', 0, 1, 2, 'torch.float32', 'cpu', '["s0", 8]', '[8, 1]', '{}');
)sql";

// The analysis's own DDL of `table` (analysis_tables()), for a fixture that holds some of the
// analysis tables; "" when no analysis table has that name.
inline std::string analysis_table_sql(std::string_view table) {
  for (const model::analysis::AnalysisTable& t : model::analysis::analysis_tables())
    if (table == t.name) return std::string(t.ddl) + "\n";
  return "";
}

// Creates `path` (replacing any old file) with the real schema, the analysis table compiles and
// the rows above, then runs `extra_sql` (more rows, or the analysis tables a test needs).
inline std::string make_fixture_db(const std::string& path, const std::string& extra_sql = "") {
  std::filesystem::remove(path);
  {
    model::Connection schema(path, model::OpenMode::kCreate);
    model::create_schema(schema);
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
    throw std::runtime_error("cannot create " + path);
  try {
    exec_sql(db, analysis_table_sql("compiles"));
    exec_sql(db, kRealRowsSql);
    if (!extra_sql.empty()) exec_sql(db, extra_sql);
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  sqlite3_close(db);
  return path;
}

}  // namespace tlscope::test
