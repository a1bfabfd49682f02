// Collective findings: desync (first sequence id where ranks disagree on op, size or dtype),
// missing collectives (ranks that reached sequence k and ranks that never did), stragglers (a
// rank arriving far later than the others' usual spread), and unreadable collective records. Each
// is stored as facts (ranks, group, sequence id, the kind's values in detail); views/ words them.
#include <algorithm>
#include <cstdio>
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

// A straggler trails the others' median arrival by at least this much (thread scheduling on a
// loaded machine was seen to delay a rank by up to 55 ms), and by at least kStragglerFactor times
// the group's usual spread: scheduling noise stays well below both.
constexpr double kStragglerFloorUs = 150'000;
// Every disagreeing sequence id is a desync of its own (a swapped pair disagrees twice), but a
// rank that skipped one collective makes every later one disagree: past this many per group the
// rest are summed up in one row.
constexpr int kDesyncRowsPerGroup = 10;
constexpr double kStragglerFactor = 10;

struct Issued {
  std::string op, sizes, dtype;
  std::vector<int64_t> ranks;
};

// The desync of one process group at its first disagreeing sequence id.
void desync_finding(sqlite3* db, Statement& insert, const std::string& pg, int64_t seq) {
  Statement q(db,
              "SELECT rank, COALESCE(op, ''), COALESCE(input_sizes, ''), COALESCE(dtype, ''), "
              "COALESCE(pg_desc, '') FROM collectives WHERE pg_name = ?1 AND seq = ?2 "
              "ORDER BY rank");
  q.bind(1, std::string_view(pg)).bind(2, seq);
  std::vector<Issued> groups;
  std::string pg_desc;
  while (q.step()) {
    pg_desc = q.text(4);
    Issued is{matched_op(q.text(1)), q.text(2), q.text(3), {q.int64(0)}};
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Issued& g) {
      return g.op == is.op && g.sizes == is.sizes && g.dtype == is.dtype;
    });
    if (it == groups.end())
      groups.push_back(std::move(is));
    else
      it->ranks.push_back(is.ranks.front());
  }
  if (groups.size() < 2) return;
  // Ranks are read in order, so on a size tie the earlier group holds the lowest rank.
  auto reference = std::max_element(
      groups.begin(), groups.end(),
      [](const Issued& a, const Issued& b) { return a.ranks.size() < b.ranks.size(); });
  // The groups are told apart by op, sizes and dtype: when neither op nor sizes differ, dtype does.
  bool ops_differ = false, sizes_differ = false;
  for (const Issued& g : groups) {
    ops_differ |= g.op != reference->op;
    sizes_differ |= g.sizes != reference->sizes;
  }
  // detail: groups (each {ranks, op, input_sizes, dtype}, lowest rank first), reference (the
  // index of the largest group, the one the others are told against) and differs (op, size or
  // dtype: the first of them that differs).
  std::vector<int64_t> at_fault;
  std::string detail = "{\"groups\":[";
  bool first = true;
  for (const Issued& g : groups) {
    detail += std::string(first ? "" : ",") + "{\"ranks\":" + ranks_json(g.ranks) +
              ",\"op\":" + json_string(g.op) + ",\"input_sizes\":" + json_string(g.sizes) +
              ",\"dtype\":" + json_string(g.dtype) + "}";
    first = false;
    if (&g != &*reference) at_fault.insert(at_fault.end(), g.ranks.begin(), g.ranks.end());
  }
  detail += "],\"reference\":" + std::to_string(reference - groups.begin()) + ",\"differs\":" +
            json_string(ops_differ     ? "op"
                        : sizes_differ ? "size"
                                       : "dtype") +
            "}";
  std::sort(at_fault.begin(), at_fault.end());
  bind_kind(insert, FindingKind::desync);
  insert.bind(3, std::string_view(ranks_json(at_fault)));
  insert.bind(4, std::string_view(ranks_json(reference->ranks)));
  insert.bind(5, std::string_view(pg)).bind(6, std::string_view(pg_desc)).bind(7, seq);
  insert.bind_null(8).bind_null(9).bind(10, std::string_view(detail)).run();
}

}  // namespace

void collective_findings(sqlite3* db) {
  // Every finding below comes from a collective record (bad ones) or from the matches made of
  // the readable ones.
  if (!has_rows(db, "artifacts WHERE name = 'collective_op'")) return;
  Statement insert(db,
                   "INSERT INTO findings(kind, severity, ranks, other_ranks, pg_name, pg_desc, "
                   "seq, file, line, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  // A skipped record: its log file and line (file, line) and what was wrong with it (problem:
  // no_payload, invalid_json or no_seq_id).
  insert_findings(
      db, FindingKind::bad_record,
      "INSERT INTO findings(kind, severity, ranks, other_ranks, file, line, detail) "
      "SELECT ?1, ?2"
      ", CASE WHEN COALESCE(f.rank, a.rank) IS NULL THEN '[]' "
      "ELSE json_array(COALESCE(f.rank, a.rank)) END, '[]', f.path, e.line, "
      "json_object('event_id', a.event_id, 'problem', CASE WHEN p.text IS NULL THEN "
      "'no_payload' WHEN NOT json_valid(p.text) THEN 'invalid_json' ELSE 'no_seq_id' END) "
      "FROM artifacts a JOIN events e ON e.id = a.event_id JOIN files f ON f.id = a.file_id "
      "LEFT JOIN payloads p ON p.id = a.payload_id WHERE a.name = 'collective_op' AND "
      // The collectives pass kept exactly the readable records: only the others' payloads
      // are read again (every payload again cost a second scan of ~300 MB at 1,024 ranks).
      "a.event_id NOT IN (SELECT event_id FROM collectives WHERE event_id IS NOT NULL) AND "
      "(p.text IS NULL OR NOT json_valid(p.text) OR "
      "json_extract(p.text, '$.collective_seq_id') IS NULL) ORDER BY a.event_id")
      .run();

  // Desync: each disagreeing sequence id of each group, the first kDesyncRowsPerGroup of them.
  std::map<std::string, int64_t> desync_seq;  // group -> first disagreeing sequence id
  {
    Statement q(db,
                "SELECT pg_name, seq, COALESCE(pg_desc, '') FROM collective_matches WHERE NOT "
                "(ops_agree AND sizes_agree AND dtypes_agree) ORDER BY pg_name, seq");
    std::map<std::string, int> rows;
    std::map<std::string, std::vector<int64_t>> rest;
    std::map<std::string, std::string> descs;
    while (q.step()) {
      std::string pg = q.text(0);
      desync_seq.try_emplace(pg, q.int64(1));
      descs[pg] = q.text(2);
      if (rows[pg]++ < kDesyncRowsPerGroup)
        desync_finding(db, insert, pg, q.int64(1));
      else
        rest[pg].push_back(q.int64(1));
    }
    for (const auto& [pg, seqs] : rest) {
      // The rest of the group's disagreeing ids, counted: more, from seq to last_seq.
      bind_kind(insert, FindingKind::desync);
      insert.bind(3, std::string_view("[]")).bind(4, std::string_view("[]"));
      insert.bind(5, std::string_view(pg)).bind(6, std::string_view(descs[pg]));
      insert.bind(7, seqs.front()).bind_null(8).bind_null(9);
      insert.bind(10, std::string_view("{\"more\":" + std::to_string(seqs.size()) +
                                       ",\"last_seq\":" + std::to_string(seqs.back()) + "}"));
      insert.run();
    }
  }

  // Missing: the first sequence id of each group that some member never reached. After a desync
  // in the same group, ranks have stopped agreeing on what sequence k is, so later gaps are not
  // reported again. One sort by (group, seq) picks the first gap of every group: a correlated
  // min(seq) per row made this quadratic in the hung-rank case, where every row is a gap
  // (bench/missing_collective_bench).
  {
    Statement q(db,
                "SELECT pg_name, COALESCE(pg_desc, ''), seq, present_ranks, missing_ranks, op, "
                "timed_out_ranks FROM (SELECT *, row_number() OVER (PARTITION BY pg_name ORDER "
                "BY seq) AS gap FROM collective_matches WHERE missing_ranks <> '[]') WHERE gap = 1 "
                "ORDER BY pg_name");
    while (q.step()) {
      std::string pg = q.text(0);
      int64_t seq = q.int64(2);
      if (desync_seq.count(pg) && desync_seq[pg] <= seq) continue;
      std::vector<int64_t> timed_out = int_list(q.text(6));
      std::string detail = "{\"op\":" + json_string(q.text(5)) +
                           ",\"timed_out_ranks\":" + ranks_json(timed_out) + "}";
      bind_kind(insert, FindingKind::missing_collective);
      insert.bind(3, std::string_view(ranks_json(int_list(q.text(4)))));
      insert.bind(4, std::string_view(ranks_json(int_list(q.text(3)))));
      insert.bind(5, std::string_view(pg)).bind(6, q.text_view(1)).bind(7, seq);
      insert.bind_null(8).bind_null(9).bind(10, std::string_view(detail)).run();
    }
  }

  // Stragglers, per group against the group's own usual spread.
  struct Match {
    int64_t seq, last_rank;
    double lag, spread, wait;
    std::string op, pg_desc, present;
    double effective_lag;  // the lag not explained by waking late or by compiling
  };
  std::map<std::string, std::vector<Match>> by_group;
  {
    Statement q(db,
                "SELECT pg_name, seq, last_rank, last_lag_us, others_spread_us, wait_us, op, "
                "COALESCE(pg_desc, ''), present_ranks, "
                // A lag counts only as far as the late rank also idled longer than the others.
                "CASE WHEN last_idle_excess_us IS NOT NULL "
                "THEN min(last_lag_us, last_idle_excess_us) ELSE last_lag_us END "
                "FROM collective_matches WHERE last_lag_us IS NOT NULL AND missing_ranks = '[]' "
                "AND timed_out_ranks = '[]' ORDER BY pg_name, seq");
    while (q.step())
      by_group[q.text(0)].push_back({q.int64(1), q.int64(2), q.real(3), q.real(4), q.real(5),
                                     q.text(6), q.text(7), q.text(8), q.real(9)});
  }
  for (auto& [pg, matches] : by_group) {
    std::vector<double> spreads;
    for (const Match& m : matches) spreads.push_back(m.spread > 0 ? m.spread : m.lag);
    std::nth_element(spreads.begin(), spreads.begin() + spreads.size() / 2, spreads.end());
    double usual = spreads[spreads.size() / 2];
    double threshold = std::max(kStragglerFloorUs, kStragglerFactor * usual);
    for (const Match& m : matches) {
      if (m.effective_lag < threshold) continue;
      std::vector<int64_t> others = int_list(m.present);
      others.erase(std::remove(others.begin(), others.end(), m.last_rank), others.end());
      char numbers[160];
      std::snprintf(numbers, sizeof numbers,
                    ",\"lag_us\":%.1f,\"wait_us\":%.1f,\"threshold_us\":%.1f}", m.lag, m.wait,
                    threshold);
      const std::string detail = "{\"op\":" + json_string(m.op) + numbers;
      bind_kind(insert, FindingKind::straggler);
      insert.bind(3, std::string_view(ranks_json({m.last_rank})));
      insert.bind(4, std::string_view(ranks_json(others))).bind(5, std::string_view(pg));
      insert.bind(6, std::string_view(m.pg_desc)).bind(7, m.seq);
      insert.bind_null(8).bind_null(9).bind(10, std::string_view(detail)).run();
    }
  }
}

}  // namespace tlscope::model::analysis
