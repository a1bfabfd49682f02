// Reads where a report came from: meta, files, the first and last event of each file and the
// PyTorch version line of the fx_graph_runnable artifacts.
#include "tlscope/views/report_provenance.hpp"

#include <algorithm>

#include "read_rows.hpp"
#include "tlscope/version.hpp"
#include "tlscope/views/run_environment.hpp"

namespace tlscope::views {

std::string glog_time_text(std::string_view t) {
  if (t.size() > 5 && t[4] == ' ' &&
      std::all_of(t.begin(), t.begin() + 4, [](char c) { return c >= '0' && c <= '9'; }))
    return std::string(t.substr(0, 2)) + "-" + std::string(t.substr(2));
  return std::string(t);
}

Result<PytorchVersions> load_pytorch_versions(const Database& db,
                                              const Result<RunEnvironment>& env) {
  Result<PytorchVersions> out;
  PytorchVersions& v = out.value;
  // The analysis's reading (a torch_version record, metrics fields, fx_graph_runnable); a
  // database analysed before run_info existed falls back to fx_graph_runnable here.
  if (!env.ok()) out.fail(env.error);
  if (env.value.analysed) {
    v.versions = env.value.torch_versions;
    v.commit = env.value.torch_commit;
    return out;
  }
  // fx_graph_runnable starts with "# torch version: 2.9.0a0+git86df3ff"; the first of each file
  // is enough (one process runs one PyTorch).
  if (db.has_table("artifacts") && db.has_table("payloads"))
    read_rows(db,
              // SQLite takes payload_id from the row holding min(event_id).
              "WITH t AS (SELECT p.text AS text, instr(p.text, '# torch version: ') AS at FROM "
              "(SELECT file_id, min(event_id), payload_id FROM artifacts WHERE name = "
              "'fx_graph_runnable' GROUP BY file_id) x JOIN payloads p ON p.id = x.payload_id "
              "ORDER BY x.file_id), "
              "v AS (SELECT substr(text, at + 17, 200) AS rest FROM t WHERE at > 0) "
              "SELECT trim(CASE WHEN instr(rest, char(10)) > 0 THEN substr(rest, 1, instr(rest, "
              "char(10)) - 1) ELSE rest END) FROM v",
              out, [&](const Statement& s) {
                std::string version = s.text(0);
                if (!version.empty() &&
                    std::find(v.versions.begin(), v.versions.end(), version) == v.versions.end())
                  v.versions.push_back(std::move(version));
              });
  return out;
}

Result<ReportProvenance> load_report_provenance(const Database& db, std::string command_line,
                                                std::string host) {
  Result<ReportProvenance> out;
  ReportProvenance& v = out.value;
  v.tlscope_version = std::string(kVersion);
  v.command_line = std::move(command_line);
  v.host = std::move(host);
  if (db.has_table("meta"))
    read_rows(db, "SELECT value FROM meta WHERE key = 'tlscope_version'", out,
              [&](const Statement& s) { v.ingest_version = s.text(0); });
  if (!db.has_table("files")) return out;
  v.input_count = db.scalar("SELECT count(*) FROM files");
  // One scan of events for every file's id range; the two ends are read by primary key.
  read_rows_bound(
      db,
      "WITH r AS (SELECT file_id, min(id) AS lo, max(id) AS hi FROM events GROUP BY file_id) "
      "SELECT f.path, f.rank, f.bytes, a.glog_time, b.glog_time FROM (SELECT id, "
      "tlscope_clip(path) AS path, rank, bytes FROM files ORDER BY id LIMIT ?1) f LEFT JOIN r ON "
      "r.file_id = f.id LEFT JOIN events a ON a.id = r.lo "
      "LEFT JOIN events b ON b.id = r.hi ORDER BY f.id",
      out, [&](Statement& s) { s.bind(1, static_cast<int64_t>(kMaxProvenanceInputs)); },
      [&](const Statement& s) {
        InputProvenance& in = v.inputs.emplace_back();
        in.path = s.text(0);
        in.rank = s.is_null(1) ? -1 : s.int64(1);
        in.bytes = s.is_null(2) ? 0 : s.int64(2);
        in.first_record = glog_time_text(s.text_view(3));
        in.last_record = glog_time_text(s.text_view(4));
      });
  Result<PytorchVersions> versions = load_pytorch_versions(db, load_run_environment(db));
  if (!versions.ok()) out.fail(versions.error);
  v.pytorch_versions = std::move(versions.value.versions);
  v.pytorch_commit = std::move(versions.value.commit);
  return out;
}

}  // namespace tlscope::views
