// A tlscope database built by hand with the tables of docs/schema.md, for view and GUI tests that
// must not wait for the store. Values come from /work/shared/logs/torch: chromium_events.log's
// three B/E pairs, comp_failure.log's compilation_metrics (and its compiles row), simple.log's
// first describe_tensor.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace tlscope::test {

inline void exec_sql(sqlite3* db, const std::string& sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string why = msg ? msg : "?";
    sqlite3_free(msg);
    throw std::runtime_error("fixture SQL failed: " + why);
  }
}

inline const char* kSchemaSql = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT, rank INTEGER, gzip INTEGER, bytes INTEGER,
  lines INTEGER, envelope_lines INTEGER, payload_lines INTEGER, blank_lines INTEGER,
  error_lines INTEGER, events INTEGER, errors INTEGER, content_hash TEXT, completed INTEGER);
CREATE TABLE events(id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER, byte_offset INTEGER,
  kind TEXT, rank INTEGER, compiled_autograd_id INTEGER, frame_id INTEGER,
  frame_compile_id INTEGER, attempt INTEGER, compile_id TEXT, glog_time TEXT, thread INTEGER,
  pathname TEXT, lineno INTEGER, metadata TEXT, payload_id INTEGER, payload_lines INTEGER,
  md5_ok INTEGER);
CREATE TABLE ingest_errors(id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER,
  byte_offset INTEGER, line_count INTEGER, kind TEXT, reason TEXT, excerpt TEXT);
CREATE TABLE compilation_metrics(event_id INTEGER, file_id INTEGER, rank INTEGER, kind TEXT,
  compile_id TEXT, frame_id INTEGER, frame_compile_id INTEGER, attempt INTEGER, co_name TEXT,
  co_filename TEXT, co_firstlineno INTEGER, cache_size INTEGER, accumulated_cache_size INTEGER,
  guard_count INTEGER, shape_env_guard_count INTEGER, graph_op_count INTEGER,
  graph_node_count INTEGER, graph_input_count INTEGER, fail_type TEXT, fail_reason TEXT,
  fail_user_frame_filename TEXT, fail_user_frame_lineno INTEGER, restart_reasons TEXT,
  recompile_reason TEXT, num_graph_breaks INTEGER, start_time_us REAL, end_time_us REAL,
  duration_us REAL, entire_frame_compile_time_s REAL, backend_compile_time_s REAL,
  inductor_compile_time_s REAL, dynamo_cumulative_compile_time_us REAL,
  aot_autograd_cumulative_compile_time_us REAL, inductor_cumulative_compile_time_us REAL,
  is_forward INTEGER, is_runtime INTEGER, json TEXT);
CREATE TABLE describe_tensor(event_id INTEGER, file_id INTEGER, rank INTEGER, compile_id TEXT,
  describer_id INTEGER, tensor_id INTEGER, ndim INTEGER, dtype TEXT, device TEXT, size TEXT,
  stride TEXT, storage_offset INTEGER, storage_id INTEGER, requires_grad INTEGER,
  is_leaf INTEGER, is_view INTEGER, is_parameter INTEGER, json TEXT);
CREATE TABLE compiles(
  id INTEGER PRIMARY KEY, file_id INTEGER, rank INTEGER, compile_id TEXT NOT NULL,
  compiled_autograd_id INTEGER, frame_id INTEGER, frame_compile_id INTEGER,
  first_event_id INTEGER, last_event_id INTEGER, attempts INTEGER,
  co_name TEXT, co_filename TEXT, co_firstlineno INTEGER, status TEXT,
  fail_type TEXT, fail_reason TEXT, graph_op_count INTEGER, restart_count INTEGER,
  recompile_reason TEXT, cache_size INTEGER, duration_us REAL, metrics_event_id INTEGER,
  tree_node_id INTEGER);
CREATE TABLE chromium_events(id INTEGER PRIMARY KEY, event_id INTEGER, file_id INTEGER,
  rank INTEGER, name TEXT, cat TEXT, ph TEXT, ts REAL, dur REAL, pid INTEGER, tid INTEGER,
  compile_id TEXT, args TEXT);
)sql";

// chromium_events.log (file 1, no rank): dynamo > entire_frame_compile > backend_compile, with
// dur = E.ts - B.ts; E rows kept with dur NULL as the schema says.
inline const char* kRealRowsSql = R"sql(
INSERT INTO files VALUES(1, 'chromium_events.log', NULL, 0, 5000, 80, 12, 60, 0, 1, 12, 1, 'ab', 1);
INSERT INTO files VALUES(2, 'comp_failure.log', NULL, 0, 9000, 120, 20, 100, 0, 0, 20, 0, 'cd', 1);
INSERT INTO events(id, file_id, line, kind) VALUES
  (1, 1, 1, 'chromium_event'), (2, 1, 14, 'str'), (3, 1, 15, 'chromium_event'),
  (4, 1, 30, 'chromium_event'), (5, 1, 43, 'chromium_event'), (6, 1, 56, 'chromium_event'),
  (7, 1, 69, 'chromium_event'), (8, 2, 1, 'compilation_metrics'), (9, 2, 2, 'dynamo_start'),
  (10, 2, 3, 'describe_tensor');
INSERT INTO ingest_errors VALUES(1, 1, 77, 3000, 1, 'bad_json', 'envelope is not valid JSON',
  'V1206 15:20:14.090000 1543231 torch/_dynamo/utils.py:1288] {"chromium_event": {');
INSERT INTO ingest_errors VALUES(2, NULL, NULL, NULL, 0, 'io', 'missing.log: no such file', '');
INSERT INTO chromium_events VALUES
  (1, 1, 1, NULL, 'dynamo', 'dynamo_timed', 'B', 1733527213926572.8, 163100.2, 0, 0, '0/0', '{}'),
  (2, 3, 1, NULL, 'entire_frame_compile', 'dynamo_timed', 'B', 1733527213928251.2, 157247.8, 0, 0, '0/0', '{}'),
  (3, 4, 1, NULL, 'backend_compile', 'dynamo_timed', 'B', 1733527214084600.2, 478.3, 0, 0, '0/0', '{}'),
  (4, 5, 1, NULL, 'backend_compile', 'dynamo_timed', 'E', 1733527214085078.5, NULL, 0, 0, '0/0', '{}'),
  (5, 6, 1, NULL, 'entire_frame_compile', 'dynamo_timed', 'E', 1733527214085499.0, NULL, 0, 0, '0/0', '{}'),
  (6, 7, 1, NULL, 'dynamo', 'dynamo_timed', 'E', 1733527214089673.0, NULL, 0, 0, '0/0', '{}');
INSERT INTO compilation_metrics(event_id, file_id, rank, kind, compile_id, co_name, co_filename,
  co_firstlineno, graph_op_count, fail_type, fail_reason, duration_us) VALUES
  (8, 2, NULL, 'compilation_metrics', '0/0', 'fn',
   '/data/users/xmfan/a/pytorch/test/dynamo/test_misc.py', 10755, NULL, 'BackendCompilerFailed',
   'backend=''broken_backend'' raised:
RuntimeError: broken backend', NULL);
-- The analysis row of that compile, as `tlscope analyze` writes it.
INSERT INTO compiles(id, file_id, rank, compile_id, frame_id, frame_compile_id, first_event_id,
  last_event_id, attempts, co_name, co_filename, co_firstlineno, status, fail_type, fail_reason,
  graph_op_count, duration_us, metrics_event_id) VALUES
  (1, 2, NULL, '0/0', 0, 0, 8, 10, 1, 'fn', '/data/users/xmfan/a/pytorch/test/dynamo/test_misc.py',
   10755, 'failed', 'BackendCompilerFailed', 'backend=''broken_backend'' raised:
RuntimeError: broken backend', NULL, NULL, 8);
INSERT INTO describe_tensor(event_id, file_id, rank, compile_id, describer_id, tensor_id, ndim,
  dtype, device, size, stride) VALUES
  (10, 2, NULL, '0/0', 0, 0, 4, 'torch.float32', 'device(type=''cuda'', index=0)',
   '[1, 320, 128, 128]', '[5242880, 1, 40960, 320]'),
  (10, 2, NULL, '0/1', 0, 1, 2, 'torch.float32', 'cpu', '["s0", 8]', '[8, 1]');
)sql";

// Creates `path` (replacing any old file) with the schema and the real rows above.
inline std::string make_fixture_db(const std::string& path, const std::string& extra_sql = "") {
  std::filesystem::remove(path);
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
    throw std::runtime_error("cannot create " + path);
  try {
    exec_sql(db, kSchemaSql);
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
