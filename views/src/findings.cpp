// Findings grouped by kind in kFindingKinds order; each group reads only the rows it shows.
#include "tlscope/views/findings.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "read_rows.hpp"

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

}  // namespace

Result<Findings> load_findings(const Database& db, size_t rows_per_kind) {
  Result<Findings> out;
  Findings& f = out.value;
  if (!db.has_table("findings")) return out;
  f.analysed = true;
  std::map<std::string, int64_t> counts;
  read_rows(db, "SELECT kind, count(*) FROM findings GROUP BY kind", out, [&](const Statement& s) {
    counts[s.text(0)] = s.int64(1);
    f.total += s.int64(1);
  });
  Statement rows = db.prepare(
      "SELECT id, kind, severity, coalesce(ranks, '[]'), coalesce(compile_id, ''), message "
      "FROM findings WHERE kind = ?1 ORDER BY id LIMIT ?2");
  auto read_kind = [&](const std::string& kind, std::vector<FindingRow>& into) {
    rows.reset();
    rows.bind(1, kind).bind(
        2, rows_per_kind >= INT64_MAX ? int64_t{-1} : static_cast<int64_t>(rows_per_kind));
    std::string error;
    rows.for_each(
        [&](const Statement& s) {
          into.push_back(
              {s.int64(0), s.text(1), s.text(2), rank_list(s.text_view(3)), s.text(4), s.text(5)});
        },
        &error);
    if (!error.empty()) out.fail(error);
  };
  for (const FindingKindInfo& k : kFindingKinds) {
    auto it = counts.find(std::string(k.kind));
    if (it == counts.end()) continue;
    FindingGroup g{&k, it->second, {}};
    read_kind(it->first, g.rows);
    f.groups.push_back(std::move(g));
    counts.erase(it);
  }
  for (const auto& [kind, n] : counts) read_kind(kind, f.unknown);
  std::sort(f.unknown.begin(), f.unknown.end(),
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
