// DDL for the ingest tables; keep in step with docs/schema.md.
#include "tlscope/model/schema.hpp"

#include <string>

#include "tlscope/version.hpp"

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
-- A file's identity (its bytes and its rank) is looked up once per file ingested or merged, to
-- find repeats: without this index each look-up scanned the table, quadratic in the file count
-- (100,000 rank files: minutes). Built with the table; a row per file costs nothing to keep.
CREATE INDEX IF NOT EXISTS files_identity ON files(content_hash, rank);
CREATE TABLE IF NOT EXISTS events(
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, line INTEGER NOT NULL,
  byte_offset INTEGER NOT NULL, kind TEXT NOT NULL, rank INTEGER,
  compiled_autograd_id INTEGER, frame_id INTEGER, frame_compile_id INTEGER, attempt INTEGER,
  compile_id TEXT, glog_time TEXT, thread INTEGER, pathname TEXT, lineno INTEGER,
  metadata TEXT, payload_id INTEGER, payload_lines INTEGER NOT NULL, md5_ok INTEGER,
  subgraph_name TEXT);
CREATE TABLE IF NOT EXISTS payloads(
  id INTEGER PRIMARY KEY, md5 TEXT NOT NULL, size INTEGER NOT NULL, text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS strings(file_id INTEGER NOT NULL, idx INTEGER, filename TEXT);
-- Each distinct stack once (the same few hundred frames recur in hundreds of thousands of
-- records); the stack_frames view gives every event its frames.
CREATE TABLE IF NOT EXISTS stacks(
  stack_id INTEGER NOT NULL, depth INTEGER NOT NULL, filename_idx INTEGER, filename TEXT,
  line INTEGER, name TEXT, loc TEXT, PRIMARY KEY(stack_id, depth)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS event_stacks(event_id INTEGER NOT NULL, stack_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ingest_errors(
  id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER, byte_offset INTEGER,
  line_count INTEGER NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL, excerpt TEXT);
-- The typed columns of the metrics records; the compilation_metrics view (kOwnViews) adds the
-- record itself (`json`) from events.metadata, where it is already stored: a record is ~16 KB in
-- the 1 GB benchmark log, so a second copy here was 109 MB of its database. A LEFT JOIN on the
-- primary key, so queries that do not select json never read events (SQLite omits the join).
CREATE TABLE IF NOT EXISTS compilation_metrics_rows(
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
  inductor_cumulative_compile_time_us INTEGER, is_forward INTEGER, is_runtime INTEGER);
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
CREATE TABLE IF NOT EXISTS chromium_event_rows(
  id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL, file_id INTEGER NOT NULL, rank INTEGER,
  name TEXT, cat TEXT, ph TEXT, ts REAL, dur REAL, pid INTEGER, tid INTEGER, compile_id TEXT,
  end_event_id INTEGER);
)sql";

// Only indexes a query of tlscope's uses (EXPLAIN QUERY PLAN of every statement of the analysis,
// a report and a summary; bench/README.md, session 9): each costs a scan and a sort after the
// load. Not built: chromium_event_rows(file_id, ts), whose one reader (the timeline's time range
// per file) took as long scanning the table, and describe_tensor(compile_id), which nothing read.
constexpr const char* kIndexes = R"sql(
CREATE INDEX IF NOT EXISTS events_kind ON events(kind);
CREATE INDEX IF NOT EXISTS events_file_frame ON events(file_id, frame_id, frame_compile_id);
CREATE INDEX IF NOT EXISTS event_stacks_event ON event_stacks(event_id);
CREATE INDEX IF NOT EXISTS artifacts_name ON artifacts(name);
CREATE INDEX IF NOT EXISTS compilation_metrics_rows_compile_id
  ON compilation_metrics_rows(compile_id);
)sql";

// tlscope's views, one list. Each is stored in the file, for other tools, and made again as a TEMP
// view on every connection tlscope opens, which is the one tlscope's statements read: SQL stored
// in a database file is never run (connection_guard.hpp).
constexpr OwnView kOwnViews[] = {
    {"stack_frames", R"sql(
SELECT es.event_id, s.depth, s.filename_idx, s.filename, s.line, s.name, s.loc
FROM event_stacks es JOIN stacks s ON s.stack_id = es.stack_id)sql",
     false},
    // args are read from the payloads when asked for, not stored a second and third time (they
    // were 40% of a database: a backend_compile E event carries ~39 KB of args). A subquery, not a
    // join, so queries that do not select args never touch events or payloads. json_valid guards
    // against payload text that is not JSON: one bad row must not fail a whole query.
    {"chromium_events", R"sql(
SELECT c.id, c.event_id, c.file_id, c.rank, c.name, c.cat, c.ph, c.ts, c.dur, c.pid, c.tid,
  c.compile_id,
  (SELECT CASE WHEN NOT json_valid(p.text) THEN NULL
               WHEN pe.text IS NULL OR NOT json_valid(pe.text) OR pe.text -> '$.args' IS NULL
                 THEN p.text -> '$.args'
               WHEN p.text -> '$.args' IS NULL THEN pe.text -> '$.args'
               ELSE json_patch(p.text -> '$.args', pe.text -> '$.args') END
     FROM events e JOIN payloads p ON p.id = e.payload_id
       LEFT JOIN events ee ON ee.id = c.end_event_id LEFT JOIN payloads pe ON pe.id = ee.payload_id
     WHERE e.id = c.event_id) AS args,
  c.end_event_id
FROM chromium_event_rows c)sql",
     false},
    // The metrics records with their json, read from events.metadata where it is already stored
    // (compilation_metrics_rows says why).
    {"compilation_metrics", R"sql(
SELECT m.event_id, m.file_id, m.rank, m.kind, m.compile_id, m.frame_id, m.frame_compile_id,
  m.attempt, m.co_name, m.co_filename, m.co_firstlineno, m.cache_size, m.accumulated_cache_size,
  m.guard_count, m.shape_env_guard_count, m.graph_op_count, m.graph_node_count,
  m.graph_input_count, m.fail_type, m.fail_reason, m.fail_user_frame_filename,
  m.fail_user_frame_lineno, m.restart_reasons, m.recompile_reason, m.num_graph_breaks,
  m.start_time_us, m.end_time_us, m.duration_us, m.entire_frame_compile_time_s,
  m.backend_compile_time_s, m.inductor_compile_time_s, m.dynamo_cumulative_compile_time_us,
  m.aot_autograd_cumulative_compile_time_us, m.inductor_cumulative_compile_time_us,
  m.is_forward, m.is_runtime, e.metadata AS json
FROM compilation_metrics_rows m LEFT JOIN events e ON e.id = m.event_id)sql",
     false},
    // One compile's events by frame, over the analysis table compiles: made with the analysis.
    {"compile_directory", R"sql(
  SELECT c.id AS compile_row, c.file_id, c.rank, c.compile_id, e.id AS event_id, e.line,
         COALESCE(e.attempt, 0) AS attempt, e.kind,
         CASE WHEN e.kind = 'artifact' THEN json_extract(e.metadata, '$.name') ELSE e.kind END
           AS name,
         CASE
           WHEN e.kind IN ('dynamo_guards', 'dynamo_cpp_guards_str') THEN 'guards'
           WHEN e.kind IN ('inductor_output_code', 'graph_dump', 'dump_file') THEN 'code'
           WHEN e.kind LIKE '%compilation_metrics%' THEN 'metrics'
           WHEN e.kind LIKE 'describe_%' THEN 'tensor'
           WHEN e.kind IN ('dynamo_output_graph', 'optimize_ddp_split_graph',
                           'optimize_ddp_split_child', 'compiled_autograd_graph',
                           'aot_joint_graph', 'aot_forward_graph', 'aot_backward_graph',
                           'aot_inference_graph', 'inductor_pre_grad_graph',
                           'inductor_post_grad_graph', 'exported_program') THEN 'graph'
           WHEN e.kind = 'bytecode_dump' THEN 'code'
           WHEN e.kind = 'artifact' AND json_extract(e.metadata, '$.name') = 'fx_graph_runnable'
             THEN 'code'
           -- Dynamo's bytecode of a frame before and after its rewrite (resume functions after a
           -- graph break too): the compile's source, beside the generated code.
           WHEN e.kind = 'artifact' AND (json_extract(e.metadata, '$.name') GLOB
               '*_ORIGINAL_BYTECODE' OR json_extract(e.metadata, '$.name') GLOB
               '*_MODIFIED_BYTECODE') THEN 'code'
           WHEN e.kind = 'artifact' AND json_extract(e.metadata, '$.name') IN (
               'before_pre_grad_graph', 'after_pre_grad_graph', 'before_post_grad_graph',
               'after_post_grad_graph', 'inductor_pre_grad_graph', 'inductor_post_grad_graph',
               'before_joint_graph', 'after_joint_graph', 'before_recompile_pre_grad',
               'after_recompile_pre_grad', 'before_recompile_post_grad',
               'after_recompile_post_grad') THEN 'graph'
           WHEN e.kind = 'artifact' THEN 'artifact'
           ELSE 'other' END AS category,
         e.payload_id, p.size AS payload_size
  FROM compiles c
  JOIN events e ON e.file_id = c.file_id AND e.frame_id IS c.frame_id
                AND e.frame_compile_id IS c.frame_compile_id
                AND e.compiled_autograd_id IS c.compiled_autograd_id
  LEFT JOIN payloads p ON p.id = e.payload_id
  WHERE e.kind NOT IN ('chromium_event', 'str'))sql",
     true},
};

}  // namespace

void refuse_other_schema_version(Connection& db) {
  if (db.scalar_int("SELECT count(*) FROM sqlite_master WHERE name = 'meta'").value_or(0) > 0) {
    Statement s = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    if (s.step() && s.text(0) != kSchemaVersion) {
      throw SqliteError("the database has schema version " + std::string(s.text(0)) +
                        " and this tlscope writes version " + std::string(kSchemaVersion) +
                        ": ingest into a new database file");
    }
  }
}

void create_schema(Connection& db) {
  // Tables are created IF NOT EXISTS, so a database of another layout would be half-reused: refuse
  // it with a clear message instead.
  refuse_other_schema_version(db);
  // One transaction, not one per table: each commit would rewrite the header page and end the
  // write lock, two dozen times for a new database.
  const bool own_transaction = sqlite3_get_autocommit(db.handle()) != 0;
  if (own_transaction) db.exec("BEGIN");
  try {
    db.exec(kTables);
    for (const OwnView& v : kOwnViews) {
      if (!v.with_analysis) db.exec(own_view_ddl(v, false));
    }
    db.exec("INSERT OR REPLACE INTO meta VALUES('schema_version', '" + std::string(kSchemaVersion) +
            "'), ('tlscope_version', '" + std::string(kVersion) + "')");
    if (own_transaction) db.exec("COMMIT");
  } catch (...) {
    if (own_transaction) sqlite3_exec(db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::span<const OwnView> own_views() {
  return kOwnViews;
}

std::string own_view_ddl(const OwnView& view, bool temp) {
  return std::string(temp ? "CREATE TEMP VIEW IF NOT EXISTS " : "CREATE VIEW IF NOT EXISTS main.") +
         std::string(view.name) + " AS" + std::string(view.select);
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

void apply_update_pragmas(Connection& db) {
  sqlite3_busy_timeout(db.handle(), 5000);
  // synchronous=NORMAL is enough with WAL: a kill (or a power cut) can lose the last commits,
  // never the consistency of what was committed before. It syncs at each checkpoint, so those
  // come every 64 MiB of log (4096 pages of 16 KiB) rather than SQLite's default 1000 pages.
  db.exec(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=4096;"
      "PRAGMA cache_size=-65536; PRAGMA temp_store=MEMORY;");
}

void end_update(Connection& db) noexcept {
  try {
    db.exec("PRAGMA journal_mode=DELETE");
  } catch (const SqliteError&) {
  }
}

}  // namespace tlscope::model
