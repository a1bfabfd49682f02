// Findings grouped by kind in kFindingKinds order. Each kind's rows are read as facts, worded
// (finding_words.hpp), merged into lines of one fact each (finding_facts.hpp), ordered by what
// they cost, then capped.
#include "tlscope/views/findings.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "read_rows.hpp"
#include "tlscope/views/finding_facts.hpp"
#include "tlscope/views/finding_words.hpp"

namespace tlscope::views {

namespace {

// One line in the making: the first finding of its fact as logged, and what the rest add.
struct Line {
  int64_t id = 0;
  std::string severity, compile_id, sentence, hint_text;
  bool rank_first = false;  // the sentence starts "rank R: " with R the finding's one rank
  std::vector<int64_t> ranks;
  int64_t occurrences = 0;
  double cost_us = 0;
  double weight = 0;  // recompiles behind it (a storm counts its recompiles), for the order
  FactMerge merge;
};

// What the known causes (finding_causes.hpp) are matched against: the sentence and the kind's
// values as key=value lines (a desync's "differs=size").
std::string hint_text(const FindingFacts& f, const std::string& sentence) {
  std::string text = sentence;
  for (const auto& [key, value] : f.values) text += "\n" + key + "=" + value;
  return text;
}

FindingRow line_row(const std::string& kind, Line& line, int64_t job_ranks) {
  FindingRow row;
  row.id = line.id;
  row.kind = kind;
  row.severity = line.severity;
  row.compile_id = line.compile_id;
  row.occurrences = line.occurrences;
  row.cost_us = line.cost_us;
  std::sort(line.ranks.begin(), line.ranks.end());
  line.ranks.erase(std::unique(line.ranks.begin(), line.ranks.end()), line.ranks.end());
  row.ranks = line.ranks;
  row.message = line.merge.text();
  row.ranks_first = line.rank_first;
  if (line.rank_first) row.message = rank_words(row.ranks, job_ranks) + ": " + row.message;
  const size_t once_each = line.rank_first ? row.ranks.size() : 1;
  if (static_cast<size_t>(line.occurrences) > once_each)
    row.message += " (" + grouped_number(line.occurrences) + " times)";
  row.hint = hint_for(kind, line.hint_text);
  return row;
}

// Findings of one kind, read in log order, merged into lines of one fact each.
class LineBuilder {
 public:
  void add(const Statement& s, int64_t job_ranks) {
    FindingFacts f = read_finding_facts(s);
    // The finding's one rank goes in front, out of the fact, so one fact on many ranks is one key.
    const bool rank_first = f.ranks.size() == 1 && finding_about_one_process(f.kind);
    FindingSentence body = finding_body(f, job_ranks);
    std::string key = (rank_first ? "P" : "U") + body.fact().key;
    auto [at, fresh] = by_key_.try_emplace(std::move(key), lines_.size());
    if (fresh) {
      Line l;
      l.id = f.id;
      l.severity = f.severity;
      l.compile_id = f.compile_id;
      l.rank_first = rank_first;
      l.hint_text = hint_text(f, body.text());
      lines_.push_back(std::move(l));
    }
    Line& line = lines_[at->second];
    line.ranks.insert(line.ranks.end(), f.ranks.begin(), f.ranks.end());
    ++line.occurrences;
    line.cost_us += s.real(13);
    line.weight += s.real(14);
    line.merge.add(body.fact());
  }

  // Costliest first (then the most recurring, then log order).
  std::vector<FindingRow> rows(const std::string& kind, int64_t job_ranks) {
    std::vector<size_t> order(lines_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (lines_[a].cost_us != lines_[b].cost_us) return lines_[a].cost_us > lines_[b].cost_us;
      return lines_[a].weight > lines_[b].weight;
    });
    std::vector<FindingRow> out;
    for (size_t i : order) out.push_back(line_row(kind, lines_[i], job_ranks));
    return out;
  }

 private:
  std::vector<Line> lines_;
  std::unordered_map<std::string, size_t> by_key_;
};

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
  // The facts of each finding, then what it cost and weighs (columns 13 and 14).
  Statement rows =
      db.prepare("SELECT " + std::string(kFindingFactColumns) + ", coalesce(json_extract(" +
                 detail_ok + ", '$.wait_us'), " + compile_cost + ", 0), coalesce(json_extract(" +
                 detail_ok + ", '$.recompiles'), 1) FROM findings f WHERE kind = ?1 ORDER BY id");
  auto read_kind = [&](const std::string& kind, size_t cap, std::vector<FindingRow>& into) {
    LineBuilder builder;
    rows.reset();
    rows.bind(1, kind);
    rows.for_each([&](const Statement& s) { builder.add(s, f.job_ranks); }, out);
    std::vector<FindingRow> lines = builder.rows(kind, f.job_ranks);
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
                  {ranks_from_json(s.text_view(2)), s.text(0), s.text(1), s.int64(3), s.real(4)});
            });
  return out;
}

}  // namespace tlscope::views
