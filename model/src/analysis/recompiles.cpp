// Recompiles (one row per recompile, the guard failure that caused it parsed into a structure)
// and frames that hit the cache size limit.
#include <map>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "json_text.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/analysis/recompiles.hpp"

namespace tlscope::model::analysis {

namespace {

void insert_recompile(Statement& insert, int64_t file_id, std::optional<int64_t> rank,
                      std::optional<int64_t> frame_id, const std::string& compile_id,
                      const std::string& reason, const std::string& all_reasons,
                      std::optional<int64_t> event_id) {
  GuardFailure g = parse_guard_failure(reason);
  insert.bind(1, file_id).bind(2, rank).bind(3, frame_id).bind(4, std::string_view(compile_id));
  // The guard's texts come from the log: written clipped (cell_text.hpp). A clipped all_reasons
  // is no longer a JSON list; nothing parses it.
  insert.bind(5, g.prev_compile_id).bind_clipped(6, g.text);
  if (g.input.empty())
    insert.bind_null(7);
  else
    insert.bind_clipped(7, g.input);
  insert.bind(8, std::string_view(g.property)).bind(9, g.index).bind_clipped(10, g.expected);
  insert.bind_clipped(11, g.actual).bind_clipped(12, all_reasons).bind(13, event_id);
  insert.run();
}

}  // namespace

void build_recompiles(sqlite3* db) {
  Statement insert(db,
                   "INSERT INTO recompiles(file_id, rank, frame_id, compile_id, "
                   "prev_compile_id, reason, guard_input, guard_property, guard_index, "
                   "expected, actual, all_reasons, event_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                   "?7, ?8, ?9, ?10, ?11, ?12, ?13)");
  // recompile_reasons artifacts: a JSON list whose first entry is the guard that failed against
  // the most recent cache entry. Some PyTorch versions send one bare string instead of a list.
  Statement artifacts(
      db,
      "SELECT a.event_id, a.file_id, COALESCE(f.rank, e.rank), e.frame_id, " +
          compile_key_sql("e.compile_id") +
          ", "
          "CASE WHEN json_valid(p.text) THEN CASE json_type(p.text) WHEN 'array' THEN p.text "
          "  ELSE json_array(json_extract(p.text, '$')) END ELSE json_array(p.text) END AS "
          "reasons, "
          "json_extract(CASE WHEN json_valid(p.text) THEN CASE json_type(p.text) WHEN 'array' "
          "  THEN p.text ELSE json_array(json_extract(p.text, '$')) END ELSE json_array(p.text) "
          "END,"
          "  '$[0]') "
          "FROM artifacts a JOIN events e ON e.id = a.event_id JOIN files f ON f.id = a.file_id "
          "LEFT JOIN payloads p ON p.id = a.payload_id "
          "WHERE a.name = 'recompile_reasons' ORDER BY a.event_id");
  std::map<std::pair<int64_t, std::string>, bool> seen;
  while (artifacts.step()) {
    std::string cid = artifacts.text(4);
    auto key = std::make_pair(artifacts.int64(1), cid);
    if (seen.count(key)) continue;  // a restarted compile may log its reasons once per attempt
    seen[key] = true;
    insert_recompile(insert, artifacts.int64(1), artifacts.opt_int64(2), artifacts.opt_int64(3),
                     cid, artifacts.text(6), artifacts.text(5), artifacts.int64(0));
  }
  // Compiles whose metrics carry a recompile_reason but whose log has no artifact for it.
  Statement from_metrics(db,
                         "SELECT file_id, rank, frame_id, compile_id, recompile_reason, "
                         "metrics_event_id FROM compiles WHERE recompile_reason IS NOT NULL "
                         "ORDER BY first_event_id");
  while (from_metrics.step()) {
    auto key = std::make_pair(from_metrics.int64(0), from_metrics.text(3));
    if (seen.count(key)) continue;
    std::string reason = from_metrics.text(4);
    std::string all = "[";
    all += json_string(reason);
    all += "]";
    insert_recompile(insert, from_metrics.int64(0), from_metrics.opt_int64(1),
                     from_metrics.opt_int64(2), from_metrics.text(3), reason, all,
                     from_metrics.opt_int64(5));
  }
  exec(db,
       "UPDATE recompiles SET frame = n.co_name FROM (SELECT file_id, frame_id, "
       "max(co_name) AS co_name FROM compiles WHERE co_name IS NOT NULL GROUP BY file_id, "
       "frame_id) AS n WHERE n.file_id = recompiles.file_id AND n.frame_id IS recompiles.frame_id");

  // Cache limit: a frame whose cache already held `limit` entries when dynamo looked at it again.
  // Evidence, strongest first: an artifact or failure that names the limit; else metrics whose
  // cache_size reached the configured limit (cache_size_limit, renamed recompile_limit).
  exec(db,
       "INSERT INTO cache_limit_hits(file_id, rank, frame_id, frame, compile_id, cache_size, "
       "cache_size_limit, evidence) "
       "SELECT a.file_id, COALESCE(f.rank, e.rank), e.frame_id, NULL, " +
           compile_key_sql("e.compile_id") +
           ", NULL, NULL, 'artifact ' || a.name "
           "FROM artifacts a JOIN events e ON e.id = a.event_id JOIN files f ON f.id = a.file_id "
           "WHERE a.name LIKE '%cache_limit%' OR a.name LIKE '%recompile_limit%' "
           "OR a.name LIKE '%cache_size_limit%' ORDER BY a.event_id");
  exec(db,
       "INSERT INTO cache_limit_hits(file_id, rank, frame_id, frame, compile_id, cache_size, "
       "cache_size_limit, evidence) "
       "SELECT c.file_id, c.rank, c.frame_id, c.co_name, c.compile_id, c.cache_size, NULL, "
       "'failure ' || c.fail_type FROM compiles c WHERE c.fail_type IS NOT NULL AND "
       "(c.fail_type LIKE '%LimitExceeded%' OR c.fail_reason LIKE '%cache_size_limit%' OR "
       "c.fail_reason LIKE '%recompile_limit%') AND NOT EXISTS (SELECT 1 FROM cache_limit_hits h "
       "WHERE h.file_id = c.file_id AND h.frame_id IS c.frame_id) ORDER BY c.first_event_id");
  // Only each frame's fullest compile can have reached the limit, so only its metrics' (large)
  // dynamo_config text is parsed.
  exec(db,
       "CREATE TEMP TABLE fullest AS SELECT id, max(cache_size) AS cache_size, "
       "metrics_event_id FROM compiles WHERE cache_size > 0 GROUP BY file_id, frame_id");
  exec(db,
       "INSERT INTO cache_limit_hits(file_id, rank, frame_id, frame, compile_id, cache_size, "
       "cache_size_limit, evidence) "
       "SELECT c.file_id, c.rank, c.frame_id, c.co_name, c.compile_id, c.cache_size, l.lim, "
       "'cache_size reached the limit' FROM temp.fullest t JOIN compiles c ON c.id = t.id "
       "JOIN (SELECT m.event_id, COALESCE("
       "    json_extract(json_extract(m.json, '$.dynamo_config'), '$.recompile_limit'), "
       "    json_extract(json_extract(m.json, '$.dynamo_config'), '$.cache_size_limit')) AS lim "
       "  FROM temp.fullest t2 JOIN compilation_metrics m ON m.event_id = t2.metrics_event_id "
       "  WHERE json_valid(m.json) AND json_valid(json_extract(m.json, '$.dynamo_config'))) l "
       "ON l.event_id = t.metrics_event_id "
       "WHERE l.lim IS NOT NULL AND c.cache_size >= l.lim AND NOT EXISTS (SELECT 1 FROM "
       "cache_limit_hits h WHERE h.file_id = c.file_id AND h.frame_id IS c.frame_id) "
       "ORDER BY c.first_event_id");
  exec(db, "DROP TABLE temp.fullest");
  exec(db,
       "UPDATE cache_limit_hits SET frame = n.co_name FROM (SELECT file_id, frame_id, "
       "max(co_name) AS co_name FROM compiles WHERE co_name IS NOT NULL GROUP BY file_id, "
       "frame_id) AS n WHERE cache_limit_hits.frame IS NULL AND n.file_id = "
       "cache_limit_hits.file_id AND n.frame_id IS cache_limit_hits.frame_id");
}

}  // namespace tlscope::model::analysis
