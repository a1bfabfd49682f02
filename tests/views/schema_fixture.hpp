// A tlscope database built by hand on the real schema (model::create_schema), for view and GUI
// tests that need exact rows. Values come from /work/shared/logs/torch: chromium_events.log's
// three B/E pairs, comp_failure.log's compilation_metrics, simple.log's first describe_tensor.
#pragma once

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "common/sql_rows.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::test {

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
INSERT INTO describe_tensor(event_id, file_id, rank, compile_id, describer_id, tensor_id, ndim,
  dtype, device, size, stride) VALUES
  (10, 2, NULL, '0/0', 0, 0, 4, 'torch.float32', 'device(type=''cuda'', index=0)',
   '[1, 320, 128, 128]', '[5242880, 1, 40960, 320]'),
  (10, 2, NULL, '0/1', 0, 1, 2, 'torch.float32', 'cpu', '["s0", 8]', '[8, 1]');
)sql";

// Creates `path` (replacing any old file) with the schema and the real rows above.
inline std::string make_fixture_db(const std::string& path, const std::string& extra_sql = "") {
  std::filesystem::remove(path);
  model::Connection db(path);
  model::create_schema(db);  // the real schema, so the fixture cannot drift from docs/schema.md
  sql_exec(db.handle(), kRealRowsSql);
  if (!extra_sql.empty()) sql_exec(db.handle(), extra_sql);
  return path;
}

}  // namespace tlscope::test
