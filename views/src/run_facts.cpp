// Reading the facts of one run (run_facts.hpp): one function per fact, each one query over
// today's analysis tables.
#include "tlscope/views/run_facts.hpp"

#include "read_rows.hpp"
#include "tlscope/views/finding_words.hpp"
#include "tlscope/views/report_provenance.hpp"

namespace tlscope::views {

bool is_graph_break_record(const GraphBreakFact& b) {
  return b.source == "artifact" || b.source == "restart_reason";
}

Result<std::optional<std::string>> read_torch_version(const Database& db) {
  // The `# torch version:` line of fx_graph_runnable, the one place today's logs state it.
  Result<std::optional<std::string>> out;
  Result<ReportProvenance> p = load_report_provenance(db, "", "");
  if (!p.ok()) out.fail(p.error);
  if (!p->pytorch_versions.empty()) out.value = p->pytorch_versions.front();
  return out;
}

Result<std::vector<int64_t>> read_ranks(const Database& db) {
  Result<std::vector<int64_t>> out;
  if (!db.has_table("files")) return out;
  read_rows(db, "SELECT DISTINCT rank FROM files WHERE rank IS NOT NULL ORDER BY rank", out,
            [&](const Statement& s) { out.value.push_back(s.int64(0)); });
  return out;
}

Result<RunHealth> read_run_health(const Database& db) {
  Result<RunHealth> out;
  if (!db.has_table("files")) return out;
  read_rows(db, "SELECT count(*), count(*) FILTER (WHERE NOT completed) FROM files", out,
            [&](const Statement& s) {
              out.value.files = s.int64(0);
              out.value.incomplete_files = s.int64(1);
            });
  return out;
}

Result<std::vector<CompileFact>> read_compiles(const Database& db) {
  Result<std::vector<CompileFact>> out;
  if (!db.has_table("compiles")) return out;
  const bool recompiles = db.has_table("recompiles"), failures = db.has_table("failures");
  // A backward failure (failures row) fails the compile even when its forward metrics are clean.
  std::string sql =
      "SELECT c.file_id, c.rank, c.compile_id, c.frame_id, c.frame_compile_id, c.co_filename, "
      "c.co_name, c.co_firstlineno, c.attempts, c.restart_count, c.metrics_event_id IS NOT NULL, "
      "c.fail_type, c.fail_reason, c.recompile_reason, c.cache_size, c.duration_us, ";
  sql += recompiles ? "r.reason, " : "NULL, ";
  sql += failures ? "fl.fail_type, fl.fail_reason " : "NULL, NULL ";
  sql += "FROM compiles c ";
  if (recompiles)
    sql +=
        "LEFT JOIN (SELECT file_id, compile_id, reason, min(id) FROM recompiles "
        "GROUP BY file_id, compile_id) r ON r.file_id = c.file_id AND r.compile_id = c.compile_id ";
  if (failures)
    sql +=
        "LEFT JOIN (SELECT file_id, compile_id, fail_type, fail_reason, min(id) FROM failures "
        "GROUP BY file_id, compile_id) fl ON fl.file_id = c.file_id AND "
        "fl.compile_id = c.compile_id ";
  sql += "ORDER BY c.file_id, c.first_event_id";
  read_rows(db, sql, out, [&](const Statement& s) {
    CompileFact& c = out.value.emplace_back();
    c.file_id = s.int64(0);
    c.rank = s.int64_or(1, -1);
    c.compile_id = s.text(2);
    c.frame_id = s.int64_or(3, -1);
    c.frame_compile_id = s.int64_or(4, -1);
    c.file = s.text(5);
    c.function = s.text(6);
    c.line = s.int64_or(7, -1);
    c.attempts = s.int64_or(8, 1);
    c.restarts = std::max<int64_t>(c.attempts - 1, s.int64_or(9, 0));
    const bool ended = s.int64(10) != 0;
    c.fail_type = s.is_null(11) ? s.text(17) : s.text(11);
    c.fail_reason = s.is_null(12) ? s.text(18) : s.text(12);
    const bool failed = !s.is_null(11) || !s.is_null(12) || !s.is_null(17);
    c.outcome = failed  ? CompileOutcome::failed
                : ended ? CompileOutcome::completed
                        : CompileOutcome::unfinished;
    c.recompile_reason = s.is_null(16) ? s.text(13) : s.text(16);
    // "0/0: tensor 'x' ..." in compilation_metrics; the recompiles table has the prefix cut.
    if (size_t colon = c.recompile_reason.find(": "); s.is_null(16) && colon != std::string::npos &&
                                                      colon < 16 &&
                                                      c.recompile_reason.find('/') < colon)
      c.recompile_reason.erase(0, colon + 2);
    const int64_t cache_size = s.int64_or(14, 0);
    c.recompile = c.outcome == CompileOutcome::completed && c.frame_compile_id > 0 &&
                  (!c.recompile_reason.empty() || cache_size > 0);
    c.duration_us = s.real_or(15, -1);
  });
  // A compile without a location (a recompile-limit failure has no dynamo_start and null co_*
  // fields) takes the location of its frame: another compile of the same frame_id and file.
  std::vector<CompileFact>& all = out.value;
  for (CompileFact& c : all) {
    if (!c.function.empty() || c.frame_id < 0) continue;
    for (const CompileFact& other : all) {
      if (other.file_id == c.file_id && other.frame_id == c.frame_id && !other.function.empty()) {
        c.file = other.file;
        c.function = other.function;
        c.line = other.line;
        break;
      }
    }
  }
  return out;
}

Result<std::vector<GraphBreakFact>> read_graph_breaks(const Database& db) {
  Result<std::vector<GraphBreakFact>> out;
  if (!db.has_table("graph_breaks")) return out;
  read_rows(db,
            "SELECT rank, compile_id, frame, reason, user_file, user_line, source FROM "
            "graph_breaks ORDER BY id",
            out, [&](const Statement& s) {
              GraphBreakFact& b = out.value.emplace_back();
              b.rank = s.int64_or(0, -1);
              b.compile_id = s.text(1);
              b.frame = s.text(2);
              b.reason = s.text(3);
              b.user_file = s.text(4);
              b.user_line = s.int64_or(5, -1);
              b.source = s.text(6);
            });
  return out;
}

Result<std::vector<CacheFact>> read_cache_results(const Database& db) {
  Result<std::vector<CacheFact>> out;
  if (!db.has_table("cache_events")) return out;
  read_rows(db, "SELECT file_id, compile_id, cache, result FROM cache_events ORDER BY id", out,
            [&](const Statement& s) {
              out.value.push_back({s.int64(0), s.text(1), s.text(2), s.text(3)});
            });
  return out;
}

Result<std::vector<PhaseFact>> read_compile_phases(const Database& db) {
  Result<std::vector<PhaseFact>> out;
  if (!db.has_table("compile_phases")) return out;
  read_rows(db,
            "SELECT file_id, compile_id, phase, source, sum(duration_us) FROM compile_phases "
            "WHERE compile_id IS NOT NULL GROUP BY file_id, compile_id, phase, source "
            "ORDER BY min(id)",
            out, [&](const Statement& s) {
              out.value.push_back({s.int64(0), s.text(1), s.text(2), s.text(3), s.real_or(4, 0)});
            });
  return out;
}

Result<std::vector<FindingFact>> read_finding_facts(const Database& db) {
  Result<std::vector<FindingFact>> out;
  if (!db.has_table("findings")) return out;
  // The facts of each finding with its sentence from views/ (finding_words.hpp), the one wording.
  std::string error;
  for (WordedFinding& w : word_findings(db, &error)) {
    FindingFact& f = out.value.emplace_back();
    f.kind = std::move(w.facts.kind);
    f.severity = std::move(w.facts.severity);
    f.ranks = std::move(w.facts.ranks);
    f.pg = w.facts.pg_desc.empty() ? w.facts.pg_name : w.facts.pg_desc;
    f.seq = w.facts.seq.value_or(-1);
    f.compile_id = std::move(w.facts.compile_id);
    f.frame = std::move(w.facts.frame);
    f.message = std::move(w.sentence);
  }
  if (!error.empty()) out.fail(error);
  return out;
}

Result<std::vector<CollectiveFact>> read_collectives(const Database& db) {
  Result<std::vector<CollectiveFact>> out;
  if (!db.has_table("collectives")) return out;
  read_rows(db,
            "SELECT rank, COALESCE(NULLIF(pg_desc, ''), pg_name), seq, op, input_sizes, dtype "
            "FROM collectives ORDER BY rank, event_id",
            out, [&](const Statement& s) {
              CollectiveFact& c = out.value.emplace_back();
              c.rank = s.int64_or(0, -1);
              c.pg = s.text(1);
              c.seq = s.int64_or(2, -1);
              c.op = s.text(3);
              c.input_sizes = s.text(4);
              c.dtype = s.text(5);
            });
  return out;
}

Result<std::vector<InputFact>> read_compile_inputs(const Database& db) {
  Result<std::vector<InputFact>> out;
  if (!db.has_table("tensors")) return out;
  read_rows(db,
            "SELECT file_id, compile_id, source, dtype, size, requires_grad FROM tensors "
            "WHERE source IS NOT NULL AND COALESCE(attempt, 0) = 0 ORDER BY id",
            out, [&](const Statement& s) {
              out.value.push_back({s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4),
                                   static_cast<int>(s.int64_or(5, -1))});
            });
  return out;
}

}  // namespace tlscope::views
