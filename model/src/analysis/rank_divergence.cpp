// Divergence between ranks: for each aspect tlparse compares (compile-id sets, cache hit/miss
// sequences, inductor collective schedules, runtime estimates, graph execution order) the ranks
// are grouped by identical value; every group outside the largest one is a divergence.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "json_text.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

namespace {

// value per rank for one aspect (and compile id); writes a row when the ranks disagree.
void compare(Statement& insert, const std::string& aspect, const std::optional<std::string>& cid,
             const std::map<int64_t, std::string>& by_rank) {
  std::map<std::string, std::vector<int64_t>> groups;
  for (const auto& [rank, value] : by_rank) groups[value].push_back(rank);
  if (groups.size() < 2) return;
  // The reference group is the largest; on a tie, the one holding the lowest rank.
  auto reference = groups.begin();
  for (auto it = groups.begin(); it != groups.end(); ++it) {
    if (it->second.size() > reference->second.size() ||
        (it->second.size() == reference->second.size() &&
         it->second.front() < reference->second.front()))
      reference = it;
  }
  std::vector<int64_t> others;
  std::string detail = "[";
  bool first = true;
  for (const auto& [value, ranks] : groups) {
    if (&value != &reference->first) others.insert(others.end(), ranks.begin(), ranks.end());
    detail += std::string(first ? "" : ",") + "{\"ranks\":" + ranks_json(ranks) +
              ",\"value\":" + json_string(value) + "}";
    first = false;
  }
  detail += "]";
  std::sort(others.begin(), others.end());
  // One row per diverging group keeps "which ranks, against which" explicit; rows follow the
  // groups' lowest ranks.
  std::vector<std::pair<std::string, std::vector<int64_t>>> ordered(groups.begin(), groups.end());
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.second.front() < b.second.front(); });
  for (const auto& [value, ranks] : ordered) {
    if (value == reference->first) continue;
    insert.bind(1, std::string_view(aspect))
        .bind(2, cid)
        .bind(3, std::string_view(ranks_json(ranks)));
    insert.bind(4, std::string_view(ranks_json(reference->second)));
    insert.bind(5, std::string_view(value)).bind(6, std::string_view(reference->first));
    insert.bind(7, std::string_view(detail)).run();
  }
}

// Runs `sql` returning (compile_id or NULL, rank, value) ordered by compile id, and compares the
// ranks per compile id. Ranks that lack a compile id are not compared for it: the compile-id
// aspect reports them.
void compare_per_compile(sqlite3* db, Statement& insert, const std::string& aspect,
                         const std::string& sql) {
  Statement q(db, sql);
  std::optional<std::string> current;
  bool any = false;
  std::map<int64_t, std::string> by_rank;
  while (q.step()) {
    std::optional<std::string> cid = q.opt_text(0);
    if (any && cid != current) {
      compare(insert, aspect, current, by_rank);
      by_rank.clear();
    }
    any = true;
    current = cid;
    by_rank[q.int64(1)] = q.text(2);
  }
  if (any) compare(insert, aspect, current, by_rank);
}

}  // namespace

void build_rank_divergence(sqlite3* db) {
  std::vector<int64_t> ranks;
  {
    Statement q(db, "SELECT DISTINCT rank FROM files WHERE rank IS NOT NULL ORDER BY rank");
    while (q.step()) ranks.push_back(q.int64(0));
  }
  if (ranks.size() < 2) return;
  Statement insert(db,
                   "INSERT INTO rank_divergence(aspect, compile_id, ranks, other_ranks, value, "
                   "other_value, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  // Whole-run aspects: every rank gets a value, empty when it logged nothing of that kind.
  auto whole_run = [&](const std::string& aspect, const std::string& sql) {
    std::map<int64_t, std::string> by_rank;
    for (int64_t r : ranks) by_rank[r] = "";
    Statement q(db, sql);
    while (q.step()) by_rank[q.int64(0)] = q.text(1);
    compare(insert, aspect, std::nullopt, by_rank);
  };
  whole_run("compile_ids",
            "SELECT rank, group_concat(compile_id, ' ') FROM (SELECT rank, compile_id FROM "
            "compiles WHERE rank IS NOT NULL ORDER BY rank, frame_id, frame_compile_id, "
            "first_event_id) GROUP BY rank");
  whole_run("cache",
            "SELECT rank, group_concat(compile_id || ' ' || cache || ' ' || result, '; ') FROM "
            "(SELECT rank, compile_id, cache, result FROM cache_events WHERE rank IS NOT NULL "
            "ORDER BY rank, event_id) GROUP BY rank");
  whole_run("execution_order",
            "SELECT r, group_concat(cid, ' ') FROM (SELECT COALESCE(f.rank, a.rank) AS r, "
            "COALESCE(json_extract(j.value, '$.compile_id'), j.value) AS cid "
            "FROM artifacts a JOIN files f ON f.id = a.file_id JOIN payloads p ON p.id = "
            "a.payload_id, json_each(json_extract(p.text, '$.graph_execution_order')) j "
            "WHERE a.name = 'graph_execution' AND json_valid(p.text) "
            "ORDER BY r, a.event_id, j.key) WHERE r IS NOT NULL GROUP BY r");
  const std::string key = compile_key_sql("a.compile_id");
  compare_per_compile(
      db, insert, "collective_schedule",
      "SELECT " + key +
          ", COALESCE(f.rank, a.rank), "
          "CASE WHEN json_valid(p.text) THEN json(p.text) ELSE p.text END "
          "FROM artifacts a JOIN files f ON f.id = a.file_id JOIN payloads p ON p.id = "
          "a.payload_id "
          "WHERE a.name = 'inductor_collective_schedule' AND COALESCE(f.rank, a.rank) IS NOT NULL "
          "ORDER BY 1, 2, a.event_id");
  compare_per_compile(
      db, insert, "runtime_estimates",
      "SELECT " + key +
          ", COALESCE(f.rank, a.rank), "
          "printf('%.0f ns over %d ops', (SELECT total(json_extract(o.value, "
          "'$.estimated_runtime_ns')) FROM json_each(json_extract(p.text, '$.ops')) o WHERE "
          "o.type = 'object'), "
          "json_array_length(json_extract(p.text, '$.ops'))) "
          "FROM artifacts a JOIN files f ON f.id = a.file_id JOIN payloads p ON p.id = "
          "a.payload_id "
          "WHERE a.name IN ('inductor_runtime_and_tensor_meta', 'inductor_tlparse_runtime') "
          "AND json_valid(p.text) AND COALESCE(f.rank, a.rank) IS NOT NULL ORDER BY 1, 2, "
          "a.event_id");
  compare_per_compile(
      db, insert, "tensor_meta",
      "SELECT " + key +
          ", COALESCE(f.rank, a.rank), (SELECT json_group_array(json_object("
          "'name', json_extract(o.value, '$.name'), 'outputs', json_extract(o.value, "
          "'$.outputs'))) "
          "FROM json_each(json_extract(p.text, '$.ops')) o WHERE o.type = 'object') "
          "FROM artifacts a JOIN files f ON f.id = a.file_id JOIN payloads p ON p.id = "
          "a.payload_id "
          "WHERE a.name IN ('inductor_runtime_and_tensor_meta', 'inductor_tlparse_runtime') "
          "AND json_valid(p.text) AND COALESCE(f.rank, a.rank) IS NOT NULL ORDER BY 1, 2, "
          "a.event_id");
}

}  // namespace tlscope::model::analysis
