// Tensors: describe_tensor joined with its storage and source per compile; the inputs whose
// shape, stride or dtype changed between a compile and the frame's previous compile; and the dims
// that became dynamic (a symbol such as "s0" where a size used to be a number).
#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

void build_tensors(sqlite3* db) {
  // (describer_id, id) pairs repeat across compiles and attempts, so sources and storages are
  // joined within the same file and the same attempt-qualified compile id.
  // These two indexes stay: they also serve the tensor views' lookups.
  exec(db,
       "CREATE INDEX IF NOT EXISTS describe_source_key ON describe_source(file_id, "
       "compile_id, describer_id, tensor_id)");
  exec(db,
       "CREATE INDEX IF NOT EXISTS describe_storage_key ON describe_storage(file_id, "
       "compile_id, describer_id, storage_id)");
  exec(db,
       "INSERT INTO tensors(file_id, rank, compile_id, attempt, frame_id, describer_id, "
       "tensor_id, source, input, dtype, device, size, stride, storage_offset, storage_bytes, "
       "requires_grad, is_leaf, is_view, is_parameter, symbolic, event_id) "
       "SELECT t.file_id, COALESCE(f.rank, t.rank), " +
           compile_key_sql("t.compile_id") + ", " + attempt_sql("t.compile_id") +
           ", e.frame_id, t.describer_id, t.tensor_id, "
           "(SELECT s.source FROM describe_source s WHERE s.file_id = t.file_id "
           "  AND s.compile_id IS t.compile_id AND s.describer_id = t.describer_id "
           "  AND s.tensor_id = t.tensor_id ORDER BY s.event_id LIMIT 1) AS src, "
           "tlscope_input_name((SELECT s.source FROM describe_source s WHERE s.file_id = t.file_id "
           "  AND s.compile_id IS t.compile_id AND s.describer_id = t.describer_id "
           "  AND s.tensor_id = t.tensor_id ORDER BY s.event_id LIMIT 1)), "
           "t.dtype, t.device, t.size, t.stride, t.storage_offset, "
           "(SELECT st.size FROM describe_storage st WHERE st.file_id = t.file_id "
           "  AND st.compile_id IS t.compile_id AND st.describer_id = t.describer_id "
           "  AND st.storage_id = t.storage_id ORDER BY st.event_id LIMIT 1), "
           "t.requires_grad, t.is_leaf, t.is_view, t.is_parameter, "
           "EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(t.size) THEN t.size ELSE '[]' "
           "END) j "
           "  WHERE j.type = 'text') OR "
           "EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(t.stride) THEN t.stride ELSE '[]' "
           "  END) j WHERE j.type = 'text'), t.event_id "
           "FROM describe_tensor t JOIN files f ON f.id = t.file_id "
           "JOIN events e ON e.id = t.event_id ORDER BY t.event_id");

  // The inputs of each compile as first described (attempt 0 of the compile), one per source.
  exec(db,
       "CREATE TEMP TABLE compile_inputs AS "
       "SELECT t.file_id, t.rank, t.frame_id, t.compile_id, c.frame_compile_id AS fcid, "
       "c.first_event_id, t.source, t.input, t.size, t.stride, t.dtype, min(t.event_id) "
       "FROM tensors t JOIN compiles c ON c.file_id = t.file_id AND c.compile_id = t.compile_id "
       "WHERE t.source IS NOT NULL GROUP BY t.file_id, t.compile_id, t.source");
  exec(db,
       "INSERT INTO tensor_shape_changes(file_id, rank, frame_id, compile_id, "
       "prev_compile_id, input, source, prev_size, size, prev_stride, stride, prev_dtype, "
       "dtype) "
       "SELECT file_id, rank, frame_id, compile_id, prev_cid, input, source, prev_size, size, "
       "prev_stride, stride, prev_dtype, dtype FROM ("
       "  SELECT *, lag(compile_id) OVER w AS prev_cid, lag(size) OVER w AS prev_size, "
       "  lag(stride) OVER w AS prev_stride, lag(dtype) OVER w AS prev_dtype "
       "  FROM temp.compile_inputs "
       "  WINDOW w AS (PARTITION BY file_id, frame_id, source ORDER BY fcid, first_event_id)) "
       "WHERE prev_cid IS NOT NULL AND (prev_size IS NOT size OR prev_stride IS NOT stride "
       "OR prev_dtype IS NOT dtype) ORDER BY first_event_id, source");
  // A dim is dynamic from the first compile of its frame where its size is a symbol.
  exec(db,
       "INSERT INTO dynamic_dims(file_id, rank, frame_id, frame, compile_id, input, source, "
       "dim, symbol) "
       "SELECT file_id, rank, frame_id, NULL, compile_id, input, source, dim, symbol FROM ("
       "  SELECT ci.file_id, ci.rank, ci.frame_id, ci.compile_id, ci.input, ci.source, "
       "  CAST(j.key AS INTEGER) AS dim, j.value AS symbol, ci.first_event_id, "
       "  row_number() OVER (PARTITION BY ci.file_id, ci.frame_id, ci.source, j.key "
       "    ORDER BY ci.fcid, ci.first_event_id) AS n "
       "  FROM temp.compile_inputs ci, json_each(CASE WHEN json_valid(ci.size) THEN ci.size "
       "    ELSE '[]' END) j WHERE j.type = 'text') "
       "WHERE n = 1 ORDER BY first_event_id, source, dim");
  exec(db,
       "UPDATE dynamic_dims SET frame = n.co_name FROM (SELECT file_id, frame_id, "
       "max(co_name) AS co_name FROM compiles WHERE co_name IS NOT NULL GROUP BY file_id, "
       "frame_id) AS n WHERE n.file_id = dynamic_dims.file_id AND n.frame_id IS "
       "dynamic_dims.frame_id");
  exec(db, "DROP TABLE temp.compile_inputs");
}

}  // namespace tlscope::model::analysis
