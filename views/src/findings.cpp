// Findings grouped by kind in kFindingKinds order. Each kind's rows are read whole, merged into
// lines of one fact each (finding_facts.hpp), ordered by what they cost, then capped.
#include "tlscope/views/findings.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "read_rows.hpp"
#include "tlscope/views/finding_facts.hpp"

namespace tlscope::views {

namespace {

using model::analysis::ranks_from_json;

// One line in the making: the first finding of its fact as logged, and what the rest add.
struct Line {
  int64_t id = 0;
  std::string severity, compile_id, message, detail;
  bool rank_prefixed = false;  // messages start "rank R: " with R the finding's one rank
  std::vector<int64_t> ranks;
  int64_t occurrences = 0;
  double cost_us = 0;
  double weight = 0;  // recompiles behind it (a storm counts its recompiles), for the order
  FactMerge merge;
};

// Single-process findings start "rank R: "; the rank goes, so one fact on many ranks is one key.
std::string_view body_of(std::string_view message, const std::vector<int64_t>& ranks,
                         bool& prefixed) {
  prefixed = false;
  if (ranks.size() == 1) {
    std::string prefix = "rank " + std::to_string(ranks[0]) + ": ";
    if (message.rfind(prefix, 0) == 0) {
      prefixed = true;
      message.remove_prefix(prefix.size());
    }
  }
  return message;
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
  row.message = line.message;
  if (line.occurrences > 1) {
    row.message = line.merge.text();
    const size_t once_each = line.rank_prefixed ? row.ranks.size() : 1;
    if (line.rank_prefixed) row.message = rank_words(row.ranks, job_ranks) + ": " + row.message;
    if (static_cast<size_t>(line.occurrences) > once_each)
      row.message += " (" + model::analysis::grouped_number(line.occurrences) + " times)";
  }
  row.hint = hint_for(kind, line.message + "\n" + line.detail);
  return row;
}

// Findings of one kind, read in log order, merged into lines of one fact each.
class LineBuilder {
 public:
  void add(const Statement& s) {
    std::vector<int64_t> ranks = ranks_from_json(s.text_view(2));
    bool prefixed = false;
    // The fact of the clipped message (Statement::text): the view model never holds more.
    std::string message = s.text(4);
    Fact fact = fact_of(body_of(message, ranks, prefixed));
    std::string key = (prefixed ? "P" : "U") + fact.key;
    auto [at, fresh] = by_key_.try_emplace(std::move(key), lines_.size());
    if (fresh) {
      Line l;
      l.id = s.int64(0);
      l.severity = s.text(1);
      l.compile_id = s.text(3);
      l.message = std::move(message);
      l.detail = s.text(5);
      l.rank_prefixed = prefixed;
      lines_.push_back(std::move(l));
    }
    Line& line = lines_[at->second];
    line.ranks.insert(line.ranks.end(), ranks.begin(), ranks.end());
    ++line.occurrences;
    line.cost_us += s.real(6);
    line.weight += s.real(7);
    line.merge.add(fact);
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
  // The long texts are clipped once, as the rows are read (cell_text.hpp): a 100 MB message or
  // detail would otherwise be read again by each JSON function and copied through the sort.
  Statement rows = db.prepare(
      "WITH f AS MATERIALIZED (SELECT id, severity, ranks, compile_id, "
      "tlscope_clip(message) AS message, tlscope_clip(detail) AS detail FROM findings "
      "WHERE kind = ?1) "
      "SELECT f.id, f.severity, coalesce(f.ranks, '[]'), coalesce(f.compile_id, ''), f.message, "
      "coalesce(f.detail, ''), coalesce(json_extract(" +
      detail_ok + ", '$.wait_us'), " + compile_cost + ", 0), coalesce(json_extract(" + detail_ok +
      ", '$.recompiles'), 1) FROM f ORDER BY f.id");
  auto read_kind = [&](const std::string& kind, size_t cap, std::vector<FindingRow>& into) {
    LineBuilder builder;
    rows.reset();
    rows.bind(1, kind);
    std::string error;
    rows.for_each([&](const Statement& s) { builder.add(s); }, &error);
    if (!error.empty()) out.fail(error);
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
