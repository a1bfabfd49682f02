// Reading the facts of one run (run_facts.hpp): one function per fact, each one query over
// today's analysis tables.
#include "tlscope/views/run_facts.hpp"

#include <algorithm>
#include <map>

#include "read_rows.hpp"
#include "tlscope/views/finding_words.hpp"
#include "tlscope/views/report_provenance.hpp"

namespace tlscope::views {

bool is_graph_break_record(const GraphBreakFact& b) {
  return b.source == "artifact" || b.source == "restart_reason";
}

Result<std::optional<std::string>> read_torch_version(const Database& db,
                                                      const Result<RunEnvironment>& env) {
  // The first version the provenance lists (load_report_provenance: the analysis's run_info, else
  // fx_graph_runnable), read without the provenance's inputs, which scan every event.
  Result<std::optional<std::string>> out;
  if (!db.has_table("files")) return out;  // the provenance lists no version then
  Result<PytorchVersions> p = load_pytorch_versions(db, env);
  if (!p.ok()) out.fail(p.error);
  if (!p->versions.empty()) out.value = p->versions.front();
  return out;
}

Result<std::optional<std::string>> read_torch_version(const Database& db) {
  if (!db.has_table("files")) return {};
  return read_torch_version(db, load_run_environment(db));
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
  // A bypass says why in its artifact's JSON payload (`cache_bypass_reason`): read for bypasses
  // only, the hits and misses need no payload.
  const bool payloads = db.has_table("events") && db.has_table("payloads");
  std::string sql = "SELECT ce.file_id, ce.compile_id, ce.cache, ce.result, ";
  sql += payloads ? "CASE WHEN ce.result = 'bypass' THEN (SELECT CASE WHEN json_valid(p.text) "
                    "THEN json_extract(p.text, '$.cache_bypass_reason') END FROM events e JOIN "
                    "payloads p ON p.id = e.payload_id WHERE e.id = ce.event_id) END "
                  : "NULL ";
  sql += "FROM cache_events ce ORDER BY ce.id";
  read_rows(db, sql, out, [&](const Statement& s) {
    out.value.push_back({s.int64(0), s.text(1), s.text(2), s.text(3), s.text(4)});
  });
  // The remote FX graph cache has no artifact: the compile's final metrics count its hits and
  // misses, one result per lookup (at most 64 of each: a hostile count must not fill memory).
  if (!db.has_table("compiles") || !db.has_table("events")) return out;
  read_rows(db,
            "SELECT c.file_id, c.compile_id, "
            "json_extract(e.metadata, '$.inductor_fx_remote_cache_hit_count'), "
            "json_extract(e.metadata, '$.inductor_fx_remote_cache_miss_count') "
            "FROM compiles c JOIN events e ON e.id = c.metrics_event_id "
            "WHERE tlscope_contains(e.metadata, 'inductor_fx_remote_cache_') AND "
            "json_valid(e.metadata) AND (json_extract(e.metadata, "
            "'$.inductor_fx_remote_cache_hit_count') > 0 OR json_extract(e.metadata, "
            "'$.inductor_fx_remote_cache_miss_count') > 0) ORDER BY c.id",
            out, [&](const Statement& s) {
              const int64_t hits = s.int64_or(2, 0), misses = s.int64_or(3, 0);
              for (int64_t i = 0; i < hits && i < 64; ++i)
                out.value.push_back({s.int64(0), s.text(1), "remote_fx_graph", "hit", ""});
              for (int64_t i = 0; i < misses && i < 64; ++i)
                out.value.push_back({s.int64(0), s.text(1), "remote_fx_graph", "miss", ""});
            });
  return out;
}

Result<std::vector<PhaseFact>> read_compile_phases(const Database& db) {
  Result<std::vector<PhaseFact>> out;
  if (!db.has_table("compile_phases")) return out;
  // In order of each group's first row. SQLite sorted the groups a second time for that (ORDER
  // BY min(id), a temp b-tree of some 66,000 rows on the 1 GB log); they are sorted here by the
  // same key instead, which is unique, so the order is the same.
  std::vector<PhaseFact> rows;
  std::vector<std::pair<int64_t, size_t>> order;  // (min(id), row): sorted, not the rows
  read_rows(db,
            "SELECT file_id, compile_id, phase, source, sum(duration_us), min(id) FROM "
            "compile_phases WHERE compile_id IS NOT NULL GROUP BY file_id, compile_id, phase, "
            "source",
            out, [&](const Statement& s) {
              order.emplace_back(s.int64(5), rows.size());
              rows.push_back({s.int64(0), s.text(1), s.text(2), s.text(3), s.real_or(4, 0)});
            });
  std::sort(order.begin(), order.end());
  out.value.reserve(rows.size());
  for (const auto& [first_id, row] : order) out.value.push_back(std::move(rows[row]));
  return out;
}

Result<std::vector<FindingFact>> read_finding_facts(const Database& db) {
  Result<std::vector<FindingFact>> out;
  if (!db.has_table("findings")) return out;
  // The facts of each finding with its sentence from views/ (finding_words.hpp), the one wording.
  Result<std::vector<WordedFinding>> worded = word_findings(db);
  for (WordedFinding& w : worded.value) {
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
  if (!worded.ok()) out.fail(worded.error);
  return out;
}

Result<std::vector<CollectiveFact>> read_collectives(const Database& db) {
  Result<std::vector<CollectiveFact>> out;
  if (!db.has_table("collectives")) return out;
  read_rows(db,
            "SELECT rank, COALESCE(NULLIF(pg_desc, ''), pg_name), seq, op, input_sizes, dtype, "
            "pg_name, created_us FROM collectives ORDER BY rank, event_id",
            out, [&](const Statement& s) {
              CollectiveFact& c = out.value.emplace_back();
              c.rank = s.int64_or(0, -1);
              c.pg = s.text(1);
              c.seq = s.int64_or(2, -1);
              c.op = s.text(3);
              c.input_sizes = s.text(4);
              c.dtype = s.text(5);
              c.pg_name = s.text(6);
              c.created_us = s.real_or(7, -1);
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

namespace tlscope::views {

Result<std::vector<RankWait>> read_collective_waits(const Database& db,
                                                    std::vector<CollectiveFact>& collectives) {
  Result<std::vector<RankWait>> out;
  if (collectives.empty() || !db.has_table("collective_matches")) return out;
  // The collectives were read once already; a second scan of the table (its rows hold each
  // group's rank list, kilobytes at 1,024 ranks) cost as much as the rest of the comparison.
  std::map<std::pair<std::string, int64_t>, double> last_arrival;
  read_rows(db,
            "SELECT pg_name, seq, last_arrival_us FROM collective_matches WHERE last_arrival_us "
            "IS NOT NULL",
            out, [&](const Statement& s) {
              last_arrival[{s.text(0), s.int64_or(1, -1)}] = s.real(2);
            });
  std::map<int64_t, RankWait> by_rank;
  for (CollectiveFact& c : collectives) {
    if (c.rank < 0 || c.created_us < 0) continue;
    auto it = last_arrival.find({c.pg_name, c.seq});
    if (it == last_arrival.end()) continue;
    c.wait_us = std::max(0.0, it->second - c.created_us);
    RankWait& w = by_rank[c.rank];
    w.rank = c.rank;
    w.wait_us += c.wait_us;
    ++w.collectives;
  }
  for (auto& [rank, w] : by_rank) out.value.push_back(w);
  return out;
}

}  // namespace tlscope::views
