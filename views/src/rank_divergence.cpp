// Reads the ranks screen: per-rank counts of the analysis tables and the rank_divergence rows.
#include "tlscope/views/rank_divergence.hpp"

#include <cstdio>
#include <map>

namespace tlscope::views {

namespace {

using PerRank = std::map<int64_t, std::string>;

RankCountRow count_row(std::string label, const std::vector<int64_t>& ranks, const PerRank& values,
                       bool compared) {
  RankCountRow row;
  row.label = std::move(label);
  row.compared = compared;
  for (int64_t r : ranks) {
    auto it = values.find(r);
    row.values.push_back(it == values.end() ? "0" : it->second);
  }
  // The majority is the value most ranks have; on a tie the smallest as text (the map's order).
  std::map<std::string, int> votes;
  for (const std::string& v : row.values) ++votes[v];
  int best = -1;
  for (const auto& [v, n] : votes)
    if (n > best) best = n, row.majority = v;
  for (const std::string& v : row.values) row.differs.push_back(compared && v != row.majority);
  return row;
}

// Rows per rank of `table` (rows without a rank are not counted), "0" where a rank has none.
PerRank count_per_rank(const Database& db, Result<RankDivergence>& out, const std::string& table,
                       const std::string& where = "") {
  PerRank counts;
  if (!db.has_table(table)) return counts;
  db.prepare("SELECT rank, count(*) FROM " + table + " WHERE rank IS NOT NULL " + where +
             " GROUP BY rank")
      .for_each([&](const Statement& s) { counts[s.int64(0)] = s.text(1); }, out);
  return counts;
}

// Seconds of compile time per rank, summed in log order.
PerRank compile_seconds(const Database& db, Result<RankDivergence>& out) {
  std::map<int64_t, double> seconds;
  if (db.has_table("compiles")) {
    db.prepare(
          "SELECT rank, coalesce(duration_us, 0) FROM compiles WHERE rank IS NOT NULL "
          "ORDER BY first_event_id, id")
        .for_each([&](const Statement& s) { seconds[s.int64(0)] += s.real(1) / 1e6; }, out);
  }
  PerRank text;
  for (const auto& [rank, sec] : seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f s", sec);
    text[rank] = buf;
  }
  return text;
}

}  // namespace

Result<RankDivergence> load_rank_divergence(const Database& db, Page page) {
  Result<RankDivergence> out;
  RankDivergence& v = out.value;
  if (db.has_table("files"))
    db.prepare("SELECT DISTINCT rank FROM files WHERE rank IS NOT NULL ORDER BY rank")
        .for_each([&](const Statement& s) { v.ranks.push_back(s.int64(0)); }, out);
  if (v.ranks.size() >= 2) {
    auto add = [&](std::string label, const std::string& table, const std::string& where = "") {
      v.counts.push_back(
          count_row(std::move(label), v.ranks, count_per_rank(db, out, table, where), true));
    };
    add("compiles", "compiles");
    add("failed compiles", "failures");
    add("graph breaks", "graph_breaks");
    add("recompiles", "recompiles");
    add("cache hits", "cache_events", "AND result = 'hit'");
    add("cache misses", "cache_events", "AND result = 'miss'");
    add("collectives", "collectives");
    v.counts.push_back(count_row("compile time", v.ranks, compile_seconds(db, out), false));
  }
  if (!db.has_table("rank_divergence")) return out;
  v.divergences.total = static_cast<size_t>(db.scalar("SELECT count(*) FROM rank_divergence"));
  Statement d = db.prepare(
      "SELECT coalesce(aspect, ''), coalesce(compile_id, ''), coalesce(ranks, ''), "
      "coalesce(value, ''), coalesce(other_ranks, ''), coalesce(other_value, '') "
      "FROM rank_divergence ORDER BY id LIMIT ? OFFSET ?");
  d.bind(1, page.limit == Page::kAll ? int64_t{-1} : static_cast<int64_t>(page.limit))
      .bind(2, static_cast<int64_t>(page.offset));
  d.for_each(
      [&](const Statement& s) {
        v.divergences.rows.push_back(
            {s.text(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)});
      },
      out);
  return out;
}

}  // namespace tlscope::views
