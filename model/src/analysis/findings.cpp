// The findings table: every analysis result worth telling a user, as one row with a plain-words
// message. Single-process findings are set-based SQL over the typed tables; divergence and
// collective findings are composed in C++ from a handful of small queries. Kinds and severities
// come from the one list, finding_kinds.hpp; front ends read the table through views/findings.hpp.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "json_text.hpp"
#include "passes.hpp"
#include "sql.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

namespace {

constexpr const char* kRankPrefix =
    "CASE WHEN rank IS NOT NULL THEN 'rank ' || rank || ': ' ELSE '' END";
constexpr const char* kRankJson = "CASE WHEN rank IS NULL THEN '[]' ELSE json_array(rank) END";

// Frames that recompiled this often (dynamo's default cache_size_limit) are a recompile storm.
constexpr int kStormRecompiles = 8;

void single_process_findings(sqlite3* db) {
  // Each finding below is made from one of these tables: when all are empty (a clean run), no
  // statement needs compiling.
  if (!has_rows(db, "graph_breaks") && !has_rows(db, "recompiles") && !has_rows(db, "failures") &&
      !has_rows(db, "cache_limit_hits"))
    return;
  const std::string prefix = kRankPrefix, ranks = kRankJson;
  exec(db,
       "INSERT INTO findings(kind, severity, ranks, compile_id, frame, message, detail) "
       "SELECT " +
           kind_severity(FindingKind::graph_break) + ", " + ranks + ", compile_id, frame, " +
           prefix +
           " || 'graph break in ' || COALESCE(frame, '(unknown frame)') || ' (compile ' || "
           "compile_id || ')' || CASE WHEN user_file IS NOT NULL THEN ' at ' || user_file || ':' "
           "|| COALESCE(user_line, '?') ELSE '' END || ': ' || COALESCE(reason, ''), "
           "json_object('reason', reason, 'file', user_file, 'line', user_line, 'source', source, "
           "'resume_compile_id', resume_compile_id) FROM graph_breaks ORDER BY id");
  exec(db,
       "INSERT INTO findings(kind, severity, ranks, compile_id, frame, message, detail) "
       "SELECT " +
           kind_severity(FindingKind::recompile) + ", " + ranks + ", compile_id, frame, " + prefix +
           " || COALESCE(frame, '(unknown frame)') || ' recompiled as ' || compile_id || ' because "
           "' || reason || CASE WHEN prev_compile_id IS NOT NULL THEN ' (guard of ' || "
           "prev_compile_id || ')' ELSE '' END, "
           "json_object('failed_guard', reason, 'prev_compile_id', prev_compile_id, 'input', "
           "guard_input, 'property', guard_property, 'index', guard_index, 'expected', expected, "
           "'actual', actual) FROM recompiles ORDER BY id");
  exec(db,
       "INSERT INTO findings(kind, severity, ranks, compile_id, frame, message, detail) "
       "SELECT " +
           kind_severity(FindingKind::compile_failure) + ", " + ranks + ", compile_id, frame, " +
           prefix +
           " || 'compile ' || compile_id || ' of ' || COALESCE(frame, '(unknown frame)') || "
           "' failed with ' || fail_type || ': ' || COALESCE(fail_reason, '(no reason)') || "
           "CASE WHEN user_file IS NOT NULL THEN ' at ' || user_file || ':' || "
           "COALESCE(user_line, '?') ELSE '' END, "
           "json_object('fail_type', fail_type, 'fail_reason', fail_reason, 'file', user_file, "
           "'line', user_line) FROM failures ORDER BY id");
  exec(db,
       "INSERT INTO findings(kind, severity, ranks, compile_id, frame, message, detail) "
       "SELECT " +
           kind_severity(FindingKind::cache_limit) + ", " + ranks + ", compile_id, frame, " +
           prefix +
           " || COALESCE(frame, '(unknown frame)') || ' hit the cache size limit at compile ' || "
           "compile_id || CASE WHEN cache_size_limit IS NOT NULL THEN ' (limit ' || "
           "cache_size_limit || ')' ELSE '' END || '; dynamo stops compiling it', "
           "json_object('evidence', evidence, 'cache_size', cache_size, 'limit', "
           "cache_size_limit) FROM cache_limit_hits ORDER BY id");
  exec(db,
       "INSERT INTO findings(kind, severity, ranks, frame, message, detail) "
       "SELECT " +
           kind_severity(FindingKind::recompile_storm) + ", " + ranks + ", frame, " + prefix +
           " || COALESCE(frame, '(unknown frame)') || ' was recompiled ' || n || ' times', "
           "json_object('recompiles', n, 'frame_id', frame_id) FROM (SELECT file_id, rank, "
           "frame_id, max(frame) AS frame, count(*) AS n, min(id) AS first FROM recompiles "
           "GROUP BY file_id, frame_id HAVING count(*) >= " +
           std::to_string(kStormRecompiles) + ") ORDER BY first");
}

std::string short_op(std::string op) {
  for (const char* strip : {"torch.ops._c10d_functional.", "torch.ops.c10d_functional."})
    if (op.rfind(strip, 0) == 0) op = op.substr(std::string(strip).size());
  if (op.size() > 8 && op.compare(op.size() - 8, 8, ".default") == 0) op.resize(op.size() - 8);
  return op;
}

// Readable form of a divergence value: schedules as op lists, long sequences shortened.
std::string readable(const std::string& aspect, const std::string& value) {
  if (value.empty()) return "nothing";
  std::string out = value;
  if (aspect == "collective_schedule") {
    std::string list;
    size_t pos = 0;
    while ((pos = value.find('"', pos)) != std::string::npos) {
      size_t end = value.find('"', pos + 1);
      if (end == std::string::npos) break;
      list += (list.empty() ? "" : ", ") + short_op(value.substr(pos + 1, end - pos - 1));
      pos = end + 1;
    }
    out = "[" + list + "]";
  }
  if (out.size() > 160) out = out.substr(0, 157) + "...";
  return out;
}

// One finding per aspect, compile and reference: every rank that differs from the same
// reference ranks is named in one line ("rank 1 has A and rank 3 has B where ranks 0, 2 (2 of 4)
// have C"), so a job where many ranks diverge alike reads as one fact, not one line per rank.
void divergence_findings(sqlite3* db) {
  if (!has_rows(db, "rank_divergence")) return;
  Statement q(db,
              "SELECT aspect, compile_id, ranks, other_ranks, value, other_value, detail "
              "FROM rank_divergence ORDER BY id");
  Statement insert(db,
                   "INSERT INTO findings(kind, severity, ranks, other_ranks, compile_id, "
                   "message, detail) VALUES (" +
                       kind_severity(FindingKind::rank_divergence) + ", ?1, ?2, ?3, ?4, ?5)");
  static const std::map<std::string, std::string> what = {
      {"compile_ids", "the set of compile ids"},
      {"cache", "the cache hit/miss sequence"},
      {"execution_order", "the graph execution order"},
      {"collective_schedule", "the collective schedule"},
      {"runtime_estimates", "the estimated runtime"},
      {"tensor_meta", "the tensor metadata"}};
  // A line names at most this many differing values; the rest are counted.
  constexpr size_t kValuesPerLine = 4;
  struct Differing {
    std::vector<int64_t> ranks;
    std::string value;
  };
  struct Divergence {
    std::string aspect, other_ranks, other_value, detail;
    std::optional<std::string> compile_id;
    std::vector<Differing> differing;
  };
  std::vector<Divergence> lines;
  std::map<std::string, size_t> by_key;
  while (q.step()) {
    std::optional<std::string> compile_id = q.opt_text(1);
    std::string key =
        q.text(0) + '\x1f' + compile_id.value_or("\x1e") + '\x1f' + q.text(3) + '\x1f' + q.text(5);
    auto [at, fresh] = by_key.try_emplace(key, lines.size());
    if (fresh) lines.push_back({q.text(0), q.text(3), q.text(5), q.text(6), compile_id, {}});
    lines[at->second].differing.push_back({int_list(q.text(2)), q.text(4)});
  }
  const int64_t job_ranks = count_rows(db, job_ranks_query());
  for (const Divergence& d : lines) {
    std::string label = what.count(d.aspect) ? what.at(d.aspect) : d.aspect;
    std::string message = label;
    if (d.compile_id) message += " of compile " + *d.compile_id;
    message += " differs between ranks: ";
    std::vector<int64_t> all;
    for (size_t i = 0; i < d.differing.size(); ++i) {
      const Differing& v = d.differing[i];
      all.insert(all.end(), v.ranks.begin(), v.ranks.end());
      if (i >= kValuesPerLine) continue;
      if (i) message += " and ";
      message += rank_words(v.ranks, job_ranks) + (v.ranks.size() == 1 ? " has " : " have ") +
                 readable(d.aspect, v.value);
    }
    if (d.differing.size() > kValuesPerLine) {
      std::vector<int64_t> rest;
      for (size_t i = kValuesPerLine; i < d.differing.size(); ++i)
        rest.insert(rest.end(), d.differing[i].ranks.begin(), d.differing[i].ranks.end());
      message += " and " + rank_words(rest, job_ranks) + " " +
                 std::to_string(d.differing.size() - kValuesPerLine) + " other values";
    }
    std::vector<int64_t> others = int_list(d.other_ranks);
    message += " where " + rank_words(others, job_ranks) + " " +
               (others.size() == 1 ? "has " : "have ") + readable(d.aspect, d.other_value);
    insert.bind(1, std::string_view(ranks_json(all))).bind(2, std::string_view(d.other_ranks));
    insert.bind(3, d.compile_id);
    insert.bind(4, std::string_view(message)).bind(5, std::string_view(d.detail)).run();
  }
}

}  // namespace

void build_findings(sqlite3* db) {
  single_process_findings(db);
  divergence_findings(db);
  collective_findings(db);
  collective_parity_findings(db);
  shape_findings(db);
}

}  // namespace tlscope::model::analysis
