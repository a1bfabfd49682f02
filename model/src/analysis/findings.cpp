// The findings table: every analysis result worth telling a user, as one row of facts: the kind,
// the ranks, where it happened (compile, frame, source file and line, process group and sequence
// id) and the kind's own values in `detail` (keys declared with the kind, finding_kinds.hpp). No
// sentence is stored: views/finding_words.cpp words each kind. Single-process findings are
// set-based SQL over the typed tables; divergence and collective findings are composed in C++
// from a handful of small queries.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json_text.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

namespace {

constexpr const char* kRankJson = "CASE WHEN rank IS NULL THEN '[]' ELSE json_array(rank) END";

// Frames that recompiled this often (dynamo's default cache_size_limit) are a recompile storm.
constexpr int kStormRecompiles = 8;

void single_process_findings(sqlite3* db) {
  // Each finding below is made from one of these tables: when all are empty (a clean run), no
  // statement needs compiling.
  if (!has_rows(db, "graph_breaks") && !has_rows(db, "recompiles") && !has_rows(db, "failures") &&
      !has_rows(db, "cache_limit_hits"))
    return;
  // The fixed head of each statement below (SQL of this file, no value): the kind and severity
  // are ?1 and ?2, bound by insert_findings.
  const std::string head =
      std::string(
          "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, frame, "
          "file, line, detail) SELECT ?1, ?2, ") +
      kRankJson + ", '[]', ";
  insert_findings(db, FindingKind::graph_break,
                  head +
                      "compile_id, frame, user_file, user_line, "
                      "json_object('reason', reason, 'source', source, 'resume_compile_id', "
                      "resume_compile_id) FROM graph_breaks ORDER BY id")
      .run();
  insert_findings(db, FindingKind::recompile,
                  head +
                      "compile_id, frame, NULL, NULL, "
                      "json_object('failed_guard', reason, 'prev_compile_id', prev_compile_id, "
                      "'input', guard_input, 'property', guard_property, 'index', guard_index, "
                      "'expected', expected, 'actual', actual) FROM recompiles ORDER BY id")
      .run();
  insert_findings(db, FindingKind::compile_failure,
                  head +
                      "compile_id, frame, user_file, user_line, "
                      "json_object('fail_type', fail_type, 'fail_reason', fail_reason) "
                      "FROM failures ORDER BY id")
      .run();
  insert_findings(db, FindingKind::cache_limit,
                  head +
                      "compile_id, frame, NULL, NULL, "
                      "json_object('evidence', evidence, 'cache_size', cache_size, 'limit', "
                      "cache_size_limit) FROM cache_limit_hits ORDER BY id")
      .run();
  insert_findings(db, FindingKind::recompile_storm,
                  head +
                      "NULL, frame, NULL, NULL, "
                      "json_object('recompiles', n, 'frame_id', frame_id) FROM (SELECT file_id, "
                      "rank, frame_id, max(frame) AS frame, count(*) AS n, min(id) AS first FROM "
                      "recompiles GROUP BY file_id, frame_id HAVING count(*) >= ?3) ORDER BY first")
      .bind(3, kStormRecompiles)
      .run();
}

// One finding per aspect, compile and reference: every rank that differs from the same
// reference ranks is one finding (views words it "rank 1 has A and rank 3 has B where ranks 0, 2
// (2 of 4) have C"), so a job where many ranks diverge alike is one fact, not one per rank.
// detail: aspect, differing (the differing values, each {ranks, value}, in rank order),
// other_value (the reference ranks' value) and groups (every value of the aspect, as
// rank_divergence.detail has it).
void divergence_findings(sqlite3* db) {
  if (!has_rows(db, "rank_divergence")) return;
  Statement q(db,
              "SELECT aspect, compile_id, ranks, other_ranks, value, other_value, detail "
              "FROM rank_divergence ORDER BY id");
  Statement insert(db,
                   "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, detail) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  struct Divergence {
    std::string aspect, other_ranks, other_value, groups, differing;
    std::optional<std::string> compile_id;
    std::vector<int64_t> ranks;
  };
  std::vector<Divergence> found;
  std::map<std::string, size_t> by_key;
  while (q.step()) {
    std::optional<std::string> compile_id = q.opt_text(1);
    std::string key =
        q.text(0) + '\x1f' + compile_id.value_or("\x1e") + '\x1f' + q.text(3) + '\x1f' + q.text(5);
    auto [at, fresh] = by_key.try_emplace(key, found.size());
    if (fresh) found.push_back({q.text(0), q.text(3), q.text(5), q.text(6), "", compile_id, {}});
    Divergence& d = found[at->second];
    std::vector<int64_t> ranks = int_list(q.text(2));
    d.ranks.insert(d.ranks.end(), ranks.begin(), ranks.end());
    if (!d.differing.empty()) d.differing += ",";
    d.differing += "{\"ranks\":" + ranks_json(ranks) + ",\"value\":" + json_string(q.text(4)) + "}";
  }
  for (const Divergence& d : found) {
    const std::string detail = "{\"aspect\":" + json_string(d.aspect) + ",\"differing\":[" +
                               d.differing + "],\"other_value\":" + json_string(d.other_value) +
                               ",\"groups\":" + (d.groups.empty() ? "[]" : d.groups) + "}";
    bind_kind(insert, FindingKind::rank_divergence);
    insert.bind(3, std::string_view(ranks_json(d.ranks)));
    insert.bind(4, std::string_view(d.other_ranks)).bind(5, d.compile_id);
    insert.bind(6, std::string_view(detail)).run();
  }
}

}  // namespace

void build_findings(sqlite3* db) {
  single_process_findings(db);
  divergence_findings(db);
  collective_findings(db);
  collective_parity_findings(db);
  shape_findings(db);
  spmd_findings(db);
}

}  // namespace tlscope::model::analysis
