// A compile's runtime metrics, autotuning and links (see compile_runtime.hpp).
#include "tlscope/views/compile_runtime.hpp"

#include "autotune_scan.hpp"
#include "read_rows.hpp"

namespace tlscope::views {

namespace {

// The compile key of a PyTorch-form id: without the "_attempt" suffix ("0/1_2" -> "0/1").
std::string compile_key(std::string id) {
  if (size_t u = id.find('_'); u != std::string::npos) id.resize(u);
  return id;
}

}  // namespace

CompileRuntimeReader::CompileRuntimeReader(const Database& db) {
  Result<int> r;
  if (db.has_table("compilation_metrics")) {
    // json_each keeps the record's field order; the record's compile id is the key already.
    RuntimeMetrics* current = nullptr;
    int64_t current_event = -1;
    read_rows(db,
              "SELECT m.event_id, m.file_id, coalesce(m.compile_id, ''), m.kind, e.line, j.key, "
              "CAST(j.value AS TEXT) FROM compilation_metrics m JOIN events e ON e.id = "
              "m.event_id, json_each(CASE WHEN json_valid(m.json) AND json_type(m.json) = "
              "'object' THEN m.json ELSE '{}' END) j WHERE m.kind LIKE '%metrics_runtime' AND "
              "j.type <> 'null' AND j.key <> 'compile_id' ORDER BY m.event_id, j.id",
              r, [&](const Statement& s) {
                if (s.int64(0) != current_event) {
                  current_event = s.int64(0);
                  CompileRuntime& c = by_compile_[{s.int64(1), compile_key(s.text(2))}];
                  c.runtime.push_back({s.text(3), s.int64(4), {}});
                  current = &c.runtime.back();
                }
                current->fields.push_back({s.text(5), s.text(6)});
              });
    // The autotune fields: only the records that may hold one non-null go through SQLite's JSON
    // functions (AutotuneScan reads the rest in a tenth of the time); their ids go to the query as
    // one JSON array. No ORDER BY in the scan: the second query orders.
    AutotuneScan scan;
    std::string parse_ids = "[";
    read_rows(db,
              "SELECT m.event_id, m.json FROM compilation_metrics m "
              "WHERE m.kind NOT LIKE '%metrics_runtime'",
              r, [&](const Statement& s) {
                if (!scan.may_hold_autotune(s.text_view(1))) return;
                if (parse_ids.size() > 1) parse_ids += ',';
                parse_ids += std::to_string(s.int64(0));
              });
    parse_ids += ']';
    if (parse_ids.size() > 2)
      read_rows_bound(
          db,
          "SELECT m.file_id, coalesce(m.compile_id, ''), j.key, CAST(j.value AS TEXT) "
          "FROM compilation_metrics m, json_each(CASE WHEN json_valid(m.json) AND "
          "json_type(m.json) = 'object' THEN m.json ELSE '{}' END) j "
          "WHERE m.event_id IN (SELECT value FROM json_each(?1)) AND "
          "m.kind NOT LIKE '%metrics_runtime' AND j.key LIKE '%autotune%' AND "
          "j.type <> 'null' ORDER BY m.event_id, j.id",
          r, [&](Statement& st) { st.bind(1, std::string_view(parse_ids)); },
          [&](const Statement& s) {
            by_compile_[{s.int64(0), compile_key(s.text(1))}].autotune.push_back(
                {s.text(2), s.text(3)});
          });
  }
  if (db.has_table("artifacts")) {
    read_rows(db,
              "SELECT a.file_id, coalesce(a.compile_id, ''), k.key, "
              "CASE WHEN k.type = 'object' THEN json_extract(k.value, '$.autotune_cache_state') "
              "END, CASE WHEN k.type = 'object' THEN json_extract(k.value, '$.num_configs') END, "
              "CASE WHEN k.type = 'object' THEN json_extract(k.value, '$.compile_time_us') END "
              "FROM artifacts a JOIN payloads p ON p.id = a.payload_id, "
              "json_each(CASE WHEN json_valid(p.text) AND json_type(p.text) = 'object' THEN "
              "p.text ELSE '{}' END) k WHERE a.name = 'triton_kernel_info' "
              "ORDER BY a.event_id, k.id",
              r, [&](const Statement& s) {
                KernelAutotune k;
                k.kernel = s.text(2);
                k.cache_state = s.text(3);
                k.configs = s.int64_or(4, -1);
                k.compile_time_us = s.int64_or(5, -1);
                by_compile_[{s.int64(0), compile_key(s.text(1))}].kernels.push_back(std::move(k));
              });
  }
  if (db.has_table("links")) {
    read_rows(
        db,
        "SELECT l.file_id, e.compile_id, coalesce(l.name, ''), coalesce(l.url, ''), "
        "e.line, coalesce(f.path, '') FROM links l JOIN events e ON e.id = l.event_id "
        "JOIN files f ON f.id = l.file_id ORDER BY l.event_id",
        r, [&](const Statement& s) {
          CompileLink link{s.text(2), s.text(3), s.int64(4)};
          if (s.is_null(1))
            unattached_.emplace_back(s.text(5), std::move(link));
          else
            by_compile_[{s.int64(0), compile_key(s.text(1))}].links.push_back(std::move(link));
        });
  }
  error_ = r.error;
}

Result<CompileRuntime> CompileRuntimeReader::read(int64_t file_id,
                                                  const std::string& compile_id) const {
  Result<CompileRuntime> out;
  out.fail(error_);
  if (auto it = by_compile_.find({file_id, compile_id}); it != by_compile_.end())
    out.value = it->second;
  return out;
}

Result<UnattachedLinks> load_unattached_links(const Database& db) {
  Result<UnattachedLinks> out;
  if (!db.has_table("links")) return out;
  read_rows(db,
            "SELECT coalesce(l.name, ''), coalesce(l.url, ''), e.line, coalesce(f.path, '') "
            "FROM links l JOIN events e ON e.id = l.event_id JOIN files f ON f.id = l.file_id "
            "WHERE e.compile_id IS NULL ORDER BY l.event_id",
            out, [&](const Statement& s) {
              out.value.emplace_back(s.text(3), CompileLink{s.text(0), s.text(1), s.int64(2)});
            });
  return out;
}

}  // namespace tlscope::views
