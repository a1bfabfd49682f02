// Read queries for the front ends. Each returns plain rows; no drawing decisions here.
#include "tlscope/views/trace_queries.hpp"

#include <simdjson.h>

namespace tlscope::views {

std::optional<TraceSummary> load_summary(const Database& db, std::string* error) {
  TraceSummary s;
  if (db.has_table("files") &&
      !db.prepare("SELECT id, path, rank, lines, events, errors, completed FROM files ORDER BY id")
           .for_each(
               [&](const Statement& st) {
                 FileRow f;
                 f.id = st.int64(0);
                 f.path = st.text(1);
                 f.rank = st.int64_or(2, -1);
                 f.lines = st.int64(3);
                 f.events = st.int64(4);
                 f.errors = st.int64(5);
                 f.completed = st.int64(6) != 0;
                 s.files.push_back(std::move(f));
               },
               error)) {
    return std::nullopt;
  }
  if (db.has_table("events") &&
      !db.prepare("SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY n DESC, kind")
           .for_each(
               [&](const Statement& st) {
                 KindCount k{st.text(0), st.int64(1)};
                 s.events += k.count;
                 s.kinds.push_back(std::move(k));
               },
               error)) {
    return std::nullopt;
  }
  if (db.has_table("ingest_errors") &&
      !db.prepare("SELECT count(*) FROM ingest_errors")
           .for_each([&](const Statement& st) { s.errors = st.int64(0); }, error)) {
    return std::nullopt;
  }
  return s;
}

std::vector<CompileRow> load_compiles(const Database& db, std::string* error) {
  std::vector<CompileRow> rows;
  if (!db.has_table("compilation_metrics")) return rows;
  db.prepare(
        "SELECT event_id, rank, kind, compile_id, co_name, co_filename, co_firstlineno, "
        "duration_us, graph_op_count, fail_type, fail_reason FROM compilation_metrics "
        "ORDER BY event_id")
      .for_each(
          [&](const Statement& st) {
            CompileRow r;
            r.event_id = st.int64(0);
            r.rank = st.int64_or(1, -1);
            r.kind = st.text(2);
            r.compile_id = st.text(3);
            r.co_name = st.text(4);
            r.co_filename = st.text(5);
            r.co_firstlineno = st.int64_or(6, -1);
            r.duration_us = st.real_or(7, -1);
            r.graph_op_count = st.int64_or(8, -1);
            r.fail_type = st.text(9);
            r.fail_reason = st.text(10);
            rows.push_back(std::move(r));
          },
          error);
  return rows;
}

std::vector<IngestErrorRow> load_ingest_errors(const Database& db, size_t limit,
                                               std::string* error) {
  std::vector<IngestErrorRow> rows;
  if (!db.has_table("ingest_errors")) return rows;
  const bool have_files = db.has_table("files");
  std::string sql =
      have_files ? "SELECT e.id, f.path, e.line, e.kind, e.reason, e.excerpt FROM "
                   "ingest_errors e LEFT JOIN files f ON f.id = e.file_id ORDER BY e.id"
                 : "SELECT id, '', line, kind, reason, excerpt FROM ingest_errors ORDER BY id";
  sql += " LIMIT " + std::to_string(limit);
  db.prepare(sql).for_each(
      [&](const Statement& st) {
        rows.push_back(
            {st.int64(0), st.text(1), st.int64_or(2, -1), st.text(3), st.text(4), st.text(5)});
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

std::vector<TensorRow> load_tensors(const Database& db, std::string* error) {
  std::vector<TensorRow> rows;
  if (!db.has_table("describe_tensor")) return rows;
  db.prepare(
        "SELECT event_id, rank, compile_id, tensor_id, dtype, device, size, stride "
        "FROM describe_tensor ORDER BY event_id")
      .for_each(
          [&](const Statement& st) {
            TensorRow r;
            r.event_id = st.int64(0);
            r.rank = st.int64_or(1, -1);
            r.compile_id = st.text(2);
            r.tensor_id = st.int64_or(3, -1);
            r.dtype = st.text(4);
            r.device = st.text(5);
            r.size_json = st.text(6);
            r.stride_json = st.text(7);
            r.shape = shape_from_size_json(r.size_json, &r.shape_error);
            rows.push_back(std::move(r));
          },
          error);
  return rows;
}

}  // namespace tlscope::views
