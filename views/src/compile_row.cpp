// Reads the analysis `compiles` table (docs/schema.md) into the one compile row type.
#include "tlscope/views/compile_row.hpp"

#include "read_rows.hpp"

namespace tlscope::views {

namespace {

// The texts are clipped in SQL (tlscope_clip, cell_text.hpp), before the sort copies them.
constexpr std::string_view kColumns =
    "SELECT id, file_id, rank, compile_id, compiled_autograd_id, frame_id, frame_compile_id, "
    "coalesce(attempts, 1), coalesce(status, ''), tlscope_clip(coalesce(co_name, '')), "
    "tlscope_clip(coalesce(co_filename, '')), coalesce(co_firstlineno, 0), "
    "tlscope_clip(coalesce(fail_type, '')), tlscope_clip(coalesce(fail_reason, '')), "
    "tlscope_clip(coalesce(recompile_reason, '')), coalesce(restart_count, 0), "
    "graph_op_count, duration_us, tree_node_id, ";

// The compile's cache outcome over all its lookups (cache_events: fx_graph and aotautograd).
// One grouped pass joined in, not a subquery per compile: a big log has thousands of compiles.
constexpr std::string_view kCacheColumn =
    "CASE WHEN ce.miss THEN 'miss' WHEN ce.bypass THEN 'bypass' WHEN ce.hit THEN 'hit' ELSE '' "
    "END FROM compiles LEFT JOIN (SELECT file_id AS ce_file, compile_id AS ce_compile, "
    "max(result = 'miss') AS miss, max(result = 'bypass') AS bypass, max(result = 'hit') AS hit "
    "FROM cache_events GROUP BY 1, 2) ce ON ce.ce_file = compiles.file_id AND "
    "ce.ce_compile = compiles.compile_id ";

// The SELECT of every CompileRow column; a database analysed before cache_events has "" there.
std::string select_compiles(const Database& db) {
  return std::string(kColumns) +
         (db.has_table("cache_events") ? std::string(kCacheColumn) : "'' FROM compiles ");
}

CompileRow read_compile(const Statement& s) {
  CompileRow c;
  c.row = s.int64(0);
  c.file_id = s.int64(1);
  c.rank = s.int64_or(2, -1);
  c.compile_id = s.text(3);
  c.compiled_autograd_id = s.int64_or(4, -1);
  c.frame_id = s.int64_or(5, -1);
  c.frame_compile_id = s.int64_or(6, -1);
  c.attempts = s.int64(7);
  c.status = s.text(8);
  c.co_name = s.text(9);
  c.co_filename = s.text(10);
  c.co_firstlineno = s.int64(11);
  c.fail_type = s.text(12);
  c.fail_reason = s.text(13);
  c.recompile_reason = s.text(14);
  c.restart_count = s.int64(15);
  c.graph_op_count = s.int64_or(16, -1);
  c.duration_us = s.real_or(17, -1);
  c.tree_node_id = s.int64_or(18, -1);
  c.cache = s.text(19);
  return c;
}

}  // namespace

Result<std::vector<CompileRow>> load_compile_rows(const Database& db) {
  Result<std::vector<CompileRow>> out;
  if (!db.has_table("compiles")) return out;
  read_rows(db, select_compiles(db) + "ORDER BY first_event_id, id", out,
            [&](const Statement& s) { out.value.push_back(read_compile(s)); });
  return out;
}

Result<std::vector<CompileRow>> load_slowest_compiles(const Database& db, size_t limit) {
  Result<std::vector<CompileRow>> out;
  if (!db.has_table("compiles")) return out;
  read_rows_bound(
      db,
      select_compiles(db) +
          "WHERE duration_us IS NOT NULL ORDER BY duration_us DESC, id "
          "LIMIT ?1",
      out,
      [&](Statement& s) { s.bind(1, static_cast<int64_t>(std::min<size_t>(limit, INT64_MAX))); },
      [&](const Statement& s) { out.value.push_back(read_compile(s)); });
  return out;
}

}  // namespace tlscope::views
