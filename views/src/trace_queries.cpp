// Read queries for the front ends. Each returns plain rows; no drawing decisions here.
#include "tlscope/views/trace_queries.hpp"

#include <simdjson.h>

namespace tlscope::views {

std::optional<TraceSummary> load_summary(const TraceDb& db, std::string* error) {
  TraceSummary s;
  if (db.has_table("files") &&
      !db.for_each_row(
          "SELECT id, path, rank, lines, events, errors, completed FROM files ORDER BY id",
          [&](sqlite3_stmt* st) {
            FileRow f;
            f.id = column_int(st, 0);
            f.path = column_text(st, 1);
            f.rank = column_int(st, 2);
            f.lines = column_int(st, 3, 0);
            f.events = column_int(st, 4, 0);
            f.errors = column_int(st, 5, 0);
            f.completed = column_int(st, 6, 0) != 0;
            s.files.push_back(std::move(f));
          },
          error)) {
    return std::nullopt;
  }
  if (db.has_table("events") &&
      !db.for_each_row(
          "SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY n DESC, kind",
          [&](sqlite3_stmt* st) {
            KindCount k{column_text(st, 0), column_int(st, 1, 0)};
            s.events += k.count;
            s.kinds.push_back(std::move(k));
          },
          error)) {
    return std::nullopt;
  }
  if (db.has_table("ingest_errors") &&
      !db.for_each_row(
          "SELECT count(*) FROM ingest_errors",
          [&](sqlite3_stmt* st) { s.errors = column_int(st, 0, 0); }, error)) {
    return std::nullopt;
  }
  return s;
}

std::vector<CompileRow> load_compiles(const TraceDb& db, std::string* error) {
  std::vector<CompileRow> rows;
  if (!db.has_table("compilation_metrics")) return rows;
  db.for_each_row(
      "SELECT event_id, rank, kind, compile_id, co_name, co_filename, co_firstlineno, "
      "duration_us, graph_op_count, fail_type, fail_reason FROM compilation_metrics "
      "ORDER BY event_id",
      [&](sqlite3_stmt* st) {
        CompileRow r;
        r.event_id = column_int(st, 0);
        r.rank = column_int(st, 1);
        r.kind = column_text(st, 2);
        r.compile_id = column_text(st, 3);
        r.co_name = column_text(st, 4);
        r.co_filename = column_text(st, 5);
        r.co_firstlineno = column_int(st, 6);
        r.duration_us = column_double(st, 7, -1);
        r.graph_op_count = column_int(st, 8);
        r.fail_type = column_text(st, 9);
        r.fail_reason = column_text(st, 10);
        rows.push_back(std::move(r));
      },
      error);
  return rows;
}

std::vector<IngestErrorRow> load_ingest_errors(const TraceDb& db, size_t limit,
                                               std::string* error) {
  std::vector<IngestErrorRow> rows;
  if (!db.has_table("ingest_errors")) return rows;
  const bool have_files = db.has_table("files");
  std::string sql =
      have_files ? "SELECT e.id, f.path, e.line, e.kind, e.reason, e.excerpt FROM "
                   "ingest_errors e LEFT JOIN files f ON f.id = e.file_id ORDER BY e.id"
                 : "SELECT id, '', line, kind, reason, excerpt FROM ingest_errors ORDER BY id";
  sql += " LIMIT " + std::to_string(limit);
  db.for_each_row(
      sql,
      [&](sqlite3_stmt* st) {
        rows.push_back({column_int(st, 0), column_text(st, 1), column_int(st, 2),
                        column_text(st, 3), column_text(st, 4), column_text(st, 5)});
      },
      error);
  return rows;
}

std::optional<std::vector<int64_t>> shape_from_size_json(const std::string& json,
                                                         std::string* error) {
  simdjson::dom::parser parser;
  simdjson::dom::array arr;
  if (parser.parse(simdjson::padded_string(json)).get(arr)) {
    if (error) *error = "size is not a JSON array";
    return std::nullopt;
  }
  std::vector<int64_t> shape;
  for (simdjson::dom::element e : arr) {
    int64_t v = 0;
    if (e.get(v) || v < 0) {
      std::string_view sym;
      if (error)
        *error = e.get(sym) ? "size holds a non-integer" : "symbolic size " + std::string(sym);
      return std::nullopt;
    }
    shape.push_back(v);
  }
  return shape;
}

std::vector<TensorRow> load_tensors(const TraceDb& db, std::string* error) {
  std::vector<TensorRow> rows;
  if (!db.has_table("describe_tensor")) return rows;
  db.for_each_row(
      "SELECT event_id, rank, compile_id, tensor_id, dtype, device, size, stride "
      "FROM describe_tensor ORDER BY event_id",
      [&](sqlite3_stmt* st) {
        TensorRow r;
        r.event_id = column_int(st, 0);
        r.rank = column_int(st, 1);
        r.compile_id = column_text(st, 2);
        r.tensor_id = column_int(st, 3);
        r.dtype = column_text(st, 4);
        r.device = column_text(st, 5);
        r.size_json = column_text(st, 6);
        r.stride_json = column_text(st, 7);
        r.shape = shape_from_size_json(r.size_json, &r.shape_error);
        rows.push_back(std::move(r));
      },
      error);
  return rows;
}

std::vector<TimelineInterval> load_chromium_intervals(const TraceDb& db, std::string* error) {
  std::vector<TimelineInterval> out;
  if (!db.has_table("chromium_events")) return out;
  db.for_each_row(
      "SELECT id, rank, file_id, pid, tid, name, ts, dur FROM chromium_events "
      "WHERE dur IS NOT NULL AND ph IN ('B', 'X') ORDER BY id",
      [&](sqlite3_stmt* st) {
        TimelineInterval iv;
        iv.source_id = column_int(st, 0);
        iv.rank = column_int(st, 1);
        std::string thread = "pid " + column_text(st, 3) + " tid " + column_text(st, 4);
        // Without a rank, files must not share lanes: their pids may collide.
        if (iv.rank < 0) thread = "file " + column_text(st, 2) + " " + thread;
        iv.thread = std::move(thread);
        iv.name = column_text(st, 5);
        iv.start_us = column_double(st, 6, 0);
        iv.end_us = iv.start_us + column_double(st, 7, 0);
        out.push_back(std::move(iv));
      },
      error);
  return out;
}

}  // namespace tlscope::views
