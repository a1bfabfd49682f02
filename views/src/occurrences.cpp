// Grouping of repeated findings: one query per list, occurrences keyed by what makes two of them
// the same problem (the reason and location, the failed guard, the cache and its outcome).
#include "tlscope/views/occurrences.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "read_rows.hpp"
#include "tlscope/views/recompile_change.hpp"

namespace tlscope::views {

namespace {

class Grouper {
 public:
  void add(const std::string& key, std::vector<Cell> cells, Occurrence occ) {
    auto [it, inserted] = index_.try_emplace(key, groups_.size());
    if (inserted) groups_.push_back({0, std::move(cells), 0, {}, {}});
    OccurrenceGroup& g = groups_[it->second];
    ++g.count;
    ++total_;
    if (occ.rank >= 0) g.ranks.insert(occ.rank);
    g.occurrences.push_back(std::move(occ));
  }

  // Most frequent first; equal counts keep their first-seen order.
  void finish(OccurrenceGroups& out, Page page) {
    std::stable_sort(
        groups_.begin(), groups_.end(),
        [](const OccurrenceGroup& a, const OccurrenceGroup& b) { return a.count > b.count; });
    for (size_t i = 0; i < groups_.size(); ++i) groups_[i].index = i;
    out.occurrence_count = total_;
    Paged<OccurrenceGroup> paged = slice(std::move(groups_), page);
    out.group_count = paged.total;
    out.groups = std::move(paged.rows);
  }

 private:
  std::map<std::string, size_t> index_;
  std::vector<OccurrenceGroup> groups_;
  int64_t total_ = 0;
};

// Columns 0-3 of every list's query: file_id, rank, compile_id, line of the event.
Occurrence occurrence(const Statement& s, std::string detail) {
  return {s.int64(0), s.int64_or(1, -1), s.text(2), s.int64(3), std::move(detail)};
}

constexpr char kSep = '\x1f';

void graph_breaks(const Database& db, Result<OccurrenceGroups>& out, Grouper& g) {
  out.value.headers = {"reason", "user location", "source"};
  read_rows(db,
            "SELECT g.file_id, g.rank, coalesce(g.compile_id, ''), coalesce(e.line, 0), "
            "coalesce(g.reason, ''), coalesce(g.user_file, ''), coalesce(g.user_line, 0), "
            "coalesce(g.frame, ''), coalesce(g.source, ''), coalesce(g.resume_compile_id, '') "
            "FROM graph_breaks g LEFT JOIN events e ON e.id = g.event_id ORDER BY g.id",
            out, [&](const Statement& s) {
              std::string location =
                  s.text_view(5).empty() ? "" : s.text(5) + ":" + std::to_string(s.int64(6));
              std::string detail = s.text_view(7).empty() ? "" : "in " + s.text(7);
              if (!s.text_view(9).empty())
                detail += (detail.empty() ? "" : ", ") + ("resumes as " + s.text(9));
              g.add(s.text(4) + kSep + location, {{s.text(4)}, {location}, {s.text(8)}},
                    occurrence(s, std::move(detail)));
            });
}

void recompiles(const Database& db, Result<OccurrenceGroups>& out, Grouper& g) {
  out.value.headers = {"failed guard", "what changed"};
  read_rows(
      db,
      "SELECT r.file_id, r.rank, coalesce(r.compile_id, ''), coalesce(e.line, 0), "
      "coalesce(r.reason, ''), coalesce(r.guard_input, ''), coalesce(r.guard_property, ''), "
      "r.guard_index, coalesce(r.expected, ''), coalesce(r.actual, ''), "
      "coalesce(r.prev_compile_id, ''), coalesce(r.frame, '') "
      "FROM recompiles r LEFT JOIN events e ON e.id = r.event_id ORDER BY r.id",
      out, [&](const Statement& s) {
        std::optional<int64_t> index;
        if (!s.is_null(7)) index = s.int64(7);
        std::string change = recompile_change({s.text(5), s.text(6), index, s.text(8), s.text(9)});
        std::string detail = s.text_view(11).empty() ? "" : "frame " + s.text(11);
        if (!s.text_view(10).empty())
          detail += (detail.empty() ? "" : ", ") + ("guard of " + s.text(10));
        g.add(s.text(4), {{s.text(4)}, {change}}, occurrence(s, std::move(detail)));
      });
}

void failures(const Database& db, Result<OccurrenceGroups>& out, Grouper& g) {
  out.value.headers = {"fail type", "reason", "user frame"};
  read_rows(db,
            "SELECT x.file_id, x.rank, coalesce(x.compile_id, ''), coalesce(e.line, 0), "
            "coalesce(x.fail_type, ''), coalesce(x.fail_reason, ''), "
            "coalesce(x.user_file, 'N/A') || ':' || coalesce(x.user_line, 0) "
            "FROM failures x LEFT JOIN events e ON e.id = x.event_id ORDER BY x.id",
            out, [&](const Statement& s) {
              g.add(s.text(4) + kSep + s.text(5) + kSep + s.text(6),
                    {{s.text(4)}, {s.text(5), CellTone::kPreformatted}, {s.text(6)}},
                    occurrence(s, ""));
            });
}

void restarts(const Database& db, Result<OccurrenceGroups>& out, Grouper& g) {
  out.value.headers = {"restart reason"};
  read_rows(db,
            "SELECT x.file_id, x.rank, coalesce(x.compile_id, ''), coalesce(e.line, 0), "
            "coalesce(x.reason, ''), coalesce(x.attempt, 0) FROM restarts x "
            "LEFT JOIN events e ON e.id = x.event_id ORDER BY x.id",
            out, [&](const Statement& s) {
              g.add(s.text(4), {{s.text(4)}},
                    occurrence(s, "restart " + std::to_string(s.int64(5) + 1)));
            });
}

CellTone outcome_tone(std::string_view result) {
  return result == "hit" ? CellTone::kGood : result == "miss" ? CellTone::kWarn : CellTone::kMuted;
}

void cache(const Database& db, Result<OccurrenceGroups>& out, Grouper& g) {
  out.value.headers = {"cache", "outcome"};
  read_rows(db,
            "SELECT c.file_id, c.rank, coalesce(c.compile_id, ''), coalesce(e.line, 0), "
            "coalesce(c.cache, ''), coalesce(c.result, '') FROM cache_events c "
            "LEFT JOIN events e ON e.id = c.event_id ORDER BY c.id",
            out, [&](const Statement& s) {
              g.add(s.text(4) + kSep + s.text(5),
                    {{s.text(4)}, {s.text(5), outcome_tone(s.text_view(5))}}, occurrence(s, ""));
            });
}

}  // namespace

Result<OccurrenceGroups> load_occurrence_groups(const Database& db, OccurrenceList list,
                                                Page page) {
  Result<OccurrenceGroups> out;
  Grouper g;
  switch (list) {
    case OccurrenceList::kGraphBreaks:
      graph_breaks(db, out, g);
      break;
    case OccurrenceList::kRecompiles:
      recompiles(db, out, g);
      break;
    case OccurrenceList::kFailures:
      failures(db, out, g);
      break;
    case OccurrenceList::kRestarts:
      restarts(db, out, g);
      break;
    case OccurrenceList::kCache:
      cache(db, out, g);
      break;
  }
  g.finish(out.value, page);
  return out;
}

Result<CacheTotals> load_cache_totals(const Database& db) {
  Result<CacheTotals> out;
  read_rows(db, "SELECT coalesce(result, ''), count(*) FROM cache_events GROUP BY 1", out,
            [&](const Statement& s) {
              std::string_view r = s.text_view(0);
              (r == "hit"    ? out.value.hits
               : r == "miss" ? out.value.misses
                             : out.value.bypasses) += s.int64(1);
            });
  return out;
}

}  // namespace tlscope::views
