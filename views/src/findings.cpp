// Findings grouped by kind in kFindingKinds order. Each kind's rows are read whole, merged into
// lines of one fact each (finding_facts.hpp), ordered by what they cost, then capped.
#include "tlscope/views/findings.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <unordered_map>

#include "read_rows.hpp"
#include "tlscope/views/finding_facts.hpp"

namespace tlscope::views {

namespace {

// "[0,2]" (a JSON integer array as the analyses write it) -> {0, 2}.
std::vector<int64_t> rank_list(std::string_view json) {
  std::vector<int64_t> out;
  std::string text(json);
  const char* p = text.c_str();
  while (*p) {
    char* end = nullptr;
    long long v = std::strtoll(p, &end, 10);
    if (end == p) {
      ++p;
      continue;
    }
    out.push_back(v);
    p = end;
  }
  return out;
}

struct RawFinding {
  int64_t id = 0;
  std::string severity;
  std::vector<int64_t> ranks;
  std::string compile_id, message, detail;
  double cost_us = 0, weight = 1;
  bool rank_prefixed = false;  // message starts "rank R: " with R its one rank
  Fact fact;                   // of the message after that prefix
};

// Single-process findings start "rank R: "; the rank goes, so one fact on many ranks is one key.
std::string_view body_of(RawFinding& r) {
  std::string_view m = r.message;
  if (r.ranks.size() == 1) {
    std::string prefix = "rank " + std::to_string(r.ranks[0]) + ": ";
    if (m.rfind(prefix, 0) == 0) {
      r.rank_prefixed = true;
      m.remove_prefix(prefix.size());
    }
  }
  return m;
}

struct Line {
  std::vector<RawFinding*> raws;
  double weight = 0;  // recompiles behind it (a storm counts its recompiles), for the order
};

FindingRow line_row(const std::string& kind, const Line& line, int64_t job_ranks) {
  const RawFinding& first = *line.raws.front();
  FindingRow row;
  row.id = first.id;
  row.kind = kind;
  row.severity = first.severity;
  row.compile_id = first.compile_id;
  row.message = first.message;
  row.occurrences = static_cast<int64_t>(line.raws.size());
  for (const RawFinding* r : line.raws) {
    row.ranks.insert(row.ranks.end(), r->ranks.begin(), r->ranks.end());
    row.cost_us += r->cost_us;
  }
  std::sort(row.ranks.begin(), row.ranks.end());
  row.ranks.erase(std::unique(row.ranks.begin(), row.ranks.end()), row.ranks.end());
  if (line.raws.size() > 1) {
    std::vector<const Fact*> facts;
    for (const RawFinding* r : line.raws) facts.push_back(&r->fact);
    row.message = merged_text(facts);
    size_t once_each = first.rank_prefixed ? row.ranks.size() : 1;
    if (first.rank_prefixed) row.message = rank_words(row.ranks, job_ranks) + ": " + row.message;
    if (line.raws.size() > once_each)
      row.message += " (" + model::analysis::grouped_number(row.occurrences) + " times)";
  }
  row.hint = hint_for(kind, first.message + "\n" + first.detail);
  return row;
}

// The kind's rows as lines, costliest first (then the most recurring, then log order).
std::vector<FindingRow> merge_lines(const std::string& kind, std::vector<RawFinding>& raws,
                                    int64_t job_ranks) {
  std::vector<Line> lines;
  std::unordered_map<std::string, size_t> by_key;
  for (RawFinding& r : raws) {
    r.fact = fact_of(body_of(r));
    std::string key = (r.rank_prefixed ? "P" : "U") + r.fact.key;
    auto [at, fresh] = by_key.try_emplace(std::move(key), lines.size());
    if (fresh) lines.emplace_back();
    lines[at->second].raws.push_back(&r);
    lines[at->second].weight += r.weight;
  }
  std::vector<std::pair<const Line*, FindingRow>> rows;
  for (const Line& l : lines) rows.emplace_back(&l, line_row(kind, l, job_ranks));
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    if (a.second.cost_us != b.second.cost_us) return a.second.cost_us > b.second.cost_us;
    return a.first->weight > b.first->weight;
  });
  std::vector<FindingRow> out;
  for (auto& [line, row] : rows) out.push_back(std::move(row));
  return out;
}

}  // namespace

Result<Findings> load_findings(const Database& db, size_t rows_per_kind) {
  Result<Findings> out;
  Findings& f = out.value;
  if (!db.has_table("findings")) return out;
  f.analysed = true;
  if (db.has_table("files")) {
    read_rows(db, "SELECT count(DISTINCT rank) FROM files", out,
              [&](const Statement& s) { f.job_ranks = s.int64(0); });
  }
  std::map<std::string, int64_t> counts;
  read_rows(db, "SELECT kind, count(*) FROM findings GROUP BY kind", out, [&](const Statement& s) {
    counts[s.text(0)] = s.int64(1);
    f.total += s.int64(1);
  });
  // What a finding cost: the others' wait for a straggler; the compile time of the compile it is
  // about (on its rank) otherwise. A storm weighs as many recompiles as it counts.
  const std::string detail_ok = "CASE WHEN json_valid(f.detail) THEN f.detail END";
  const std::string compile_cost =
      db.has_table("compiles")
          ? "(SELECT total(c.duration_us) FROM compiles c WHERE c.compile_id = f.compile_id AND "
            "c.rank IS (CASE WHEN json_valid(f.ranks) THEN json_extract(f.ranks, '$[0]') END))"
          : "0";
  Statement rows = db.prepare(
      "SELECT f.id, f.severity, coalesce(f.ranks, '[]'), coalesce(f.compile_id, ''), f.message, "
      "coalesce(f.detail, ''), coalesce(json_extract(" +
      detail_ok + ", '$.wait_us'), " + compile_cost + ", 0), coalesce(json_extract(" + detail_ok +
      ", '$.recompiles'), 1) FROM findings f WHERE f.kind = ?1 ORDER BY f.id");
  auto read_kind = [&](const std::string& kind, size_t cap, std::vector<FindingRow>& into) {
    std::vector<RawFinding> raws;
    rows.reset();
    rows.bind(1, kind);
    std::string error;
    rows.for_each(
        [&](const Statement& s) {
          RawFinding r;
          r.id = s.int64(0);
          r.severity = s.text(1);
          r.ranks = rank_list(s.text_view(2));
          r.compile_id = s.text(3);
          r.message = s.text(4);
          r.detail = s.text(5);
          r.cost_us = s.real(6);
          r.weight = s.real(7);
          raws.push_back(std::move(r));
        },
        &error);
    if (!error.empty()) out.fail(error);
    std::vector<FindingRow> lines = merge_lines(kind, raws, f.job_ranks);
    f.lines += static_cast<int64_t>(lines.size());
    const size_t n = lines.size();
    if (lines.size() > cap) lines.resize(cap);
    for (FindingRow& l : lines) into.push_back(std::move(l));
    return n;
  };
  for (const FindingKindInfo& k : kFindingKinds) {
    auto it = counts.find(std::string(k.kind));
    if (it == counts.end()) continue;
    FindingGroup g{&k, 0, it->second, {}};
    g.count = static_cast<int64_t>(read_kind(it->first, rows_per_kind, g.rows));
    f.groups.push_back(std::move(g));
    counts.erase(it);
  }
  for (const auto& [kind, n] : counts) read_kind(kind, SIZE_MAX, f.unknown);
  std::stable_sort(f.unknown.begin(), f.unknown.end(),
                   [](const FindingRow& a, const FindingRow& b) { return a.id < b.id; });
  read_rows(db,
            "SELECT pg_name, coalesce(max(pg_desc), ''), ranks, count(*), "
            "total(json_extract(detail, '$.wait_us')) FROM findings WHERE kind = 'straggler' "
            "GROUP BY pg_name, ranks HAVING count(*) >= 2 ORDER BY pg_name, ranks",
            out, [&](const Statement& s) {
              f.late_again.push_back(
                  {rank_list(s.text_view(2)), s.text(0), s.text(1), s.int64(3), s.real(4)});
            });
  return out;
}

}  // namespace tlscope::views
