// DDL for the ingest tables; keep in step with docs/schema.md.
#include "tlscope/model/schema.hpp"

#include <string>

namespace tlscope::model {
namespace {

constexpr const char* kTables = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(
  id INTEGER PRIMARY KEY, path TEXT NOT NULL, rank INTEGER, gzip INTEGER NOT NULL,
  bytes INTEGER NOT NULL DEFAULT 0, lines INTEGER NOT NULL DEFAULT 0,
  envelope_lines INTEGER NOT NULL DEFAULT 0, payload_lines INTEGER NOT NULL DEFAULT 0,
  blank_lines INTEGER NOT NULL DEFAULT 0, error_lines INTEGER NOT NULL DEFAULT 0,
  events INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0,
  content_hash TEXT, completed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS events(
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, line INTEGER NOT NULL,
  byte_offset INTEGER NOT NULL, kind TEXT NOT NULL, rank INTEGER,
  compiled_autograd_id INTEGER, frame_id INTEGER, frame_compile_id INTEGER, attempt INTEGER,
  compile_id TEXT, glog_time TEXT, thread INTEGER, pathname TEXT, lineno INTEGER,
  metadata TEXT, payload_id INTEGER, payload_lines INTEGER NOT NULL, md5_ok INTEGER);
CREATE TABLE IF NOT EXISTS payloads(
  id INTEGER PRIMARY KEY, md5 TEXT NOT NULL, size INTEGER NOT NULL, text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS strings(file_id INTEGER NOT NULL, idx INTEGER, filename TEXT);
CREATE TABLE IF NOT EXISTS stack_frames(
  event_id INTEGER NOT NULL, depth INTEGER NOT NULL, filename_idx INTEGER, filename TEXT,
  line INTEGER, name TEXT, loc TEXT);
CREATE TABLE IF NOT EXISTS ingest_errors(
  id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER, byte_offset INTEGER,
  line_count INTEGER NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL, excerpt TEXT);
CREATE TABLE IF NOT EXISTS compilation_metrics(
  event_id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, rank INTEGER, kind TEXT NOT NULL,
  compile_id TEXT, frame_id INTEGER, frame_compile_id INTEGER, attempt INTEGER,
  co_name TEXT, co_filename TEXT, co_firstlineno INTEGER, cache_size INTEGER,
  accumulated_cache_size INTEGER, guard_count INTEGER, shape_env_guard_count INTEGER,
  graph_op_count INTEGER, graph_node_count INTEGER, graph_input_count INTEGER,
  fail_type TEXT, fail_reason TEXT, fail_user_frame_filename TEXT,
  fail_user_frame_lineno INTEGER, restart_reasons TEXT, recompile_reason TEXT,
  num_graph_breaks INTEGER, start_time_us INTEGER, end_time_us INTEGER, duration_us INTEGER,
  entire_frame_compile_time_s REAL, backend_compile_time_s REAL, inductor_compile_time_s REAL,
  dynamo_cumulative_compile_time_us INTEGER, aot_autograd_cumulative_compile_time_us INTEGER,
  inductor_cumulative_compile_time_us INTEGER, is_forward INTEGER, is_runtime INTEGER,
  json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS describe_tensor(
  event_id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, rank INTEGER, compile_id TEXT,
  describer_id INTEGER, tensor_id INTEGER, ndim INTEGER, dtype TEXT, device TEXT, size TEXT,
  stride TEXT, storage_offset INTEGER, storage_id INTEGER, requires_grad INTEGER,
  is_leaf INTEGER, is_view INTEGER, is_parameter INTEGER, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS describe_storage(
  event_id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, rank INTEGER, compile_id TEXT,
  describer_id INTEGER, storage_id INTEGER, size INTEGER);
CREATE TABLE IF NOT EXISTS describe_source(
  event_id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, rank INTEGER, compile_id TEXT,
  describer_id INTEGER, tensor_id INTEGER, source TEXT);
CREATE TABLE IF NOT EXISTS artifacts(
  event_id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, rank INTEGER, compile_id TEXT,
  name TEXT, encoding TEXT, payload_id INTEGER);
CREATE TABLE IF NOT EXISTS links(
  event_id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, name TEXT, url TEXT);
CREATE TABLE IF NOT EXISTS chromium_events(
  id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL, file_id INTEGER NOT NULL, rank INTEGER,
  name TEXT, cat TEXT, ph TEXT, ts REAL, dur REAL, pid INTEGER, tid INTEGER, compile_id TEXT,
  args TEXT);
)sql";

constexpr const char* kIndexes = R"sql(
CREATE UNIQUE INDEX IF NOT EXISTS payloads_md5 ON payloads(md5);
CREATE INDEX IF NOT EXISTS events_kind ON events(kind);
CREATE INDEX IF NOT EXISTS events_file_line ON events(file_id, line);
CREATE INDEX IF NOT EXISTS events_frame ON events(frame_id, frame_compile_id);
CREATE INDEX IF NOT EXISTS events_compile_id ON events(compile_id);
CREATE INDEX IF NOT EXISTS stack_frames_event ON stack_frames(event_id);
CREATE INDEX IF NOT EXISTS artifacts_name ON artifacts(name);
CREATE INDEX IF NOT EXISTS chromium_events_file_ts ON chromium_events(file_id, ts);
CREATE INDEX IF NOT EXISTS compilation_metrics_compile_id ON compilation_metrics(compile_id);
CREATE INDEX IF NOT EXISTS describe_tensor_compile_id ON describe_tensor(compile_id);
)sql";

}  // namespace

void create_schema(Connection& db) {
  db.exec(kTables);
  db.exec("INSERT OR REPLACE INTO meta VALUES('schema_version', '" + std::string(kSchemaVersion) +
          "'), ('tlscope_version', '0.1.0')");
}

void create_indexes(Connection& db) {
  db.exec(kIndexes);
}

void apply_bulk_load_pragmas(Connection& db) {
  // 16 KiB pages: payload rows average a few KiB, and 64 KiB pages left a third of each leaf
  // empty (measured with dbstat) while 4 KiB pages chain more overflow pages; page_size only
  // takes effect on a new database. cache_size is negative KiB: 64 MiB keeps RSS in budget.
  db.exec(
      "PRAGMA page_size=16384; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
      "PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY; PRAGMA locking_mode=EXCLUSIVE;");
}

}  // namespace tlscope::model
