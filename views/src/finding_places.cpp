// One pass over the findings table's place columns.
#include "tlscope/views/finding_places.hpp"

#include "read_rows.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::views {

Result<std::map<int64_t, FindingPlace>> load_finding_places(const Database& db) {
  Result<std::map<int64_t, FindingPlace>> out;
  if (!db.has_table("findings")) return out;
  read_rows(db,
            "SELECT id, coalesce(pg_name, ''), coalesce(seq, -1), coalesce(compile_id, ''), "
            "coalesce(ranks, '[]'), coalesce(other_ranks, '[]') FROM findings",
            out, [&](const Statement& s) {
              FindingPlace& p = out.value[s.int64(0)];
              p.pg_name = s.text(1);
              p.seq = s.int64(2);
              p.compile_id = s.text(3);
              p.ranks = ranks_from_json(s.text_view(4));
              p.other_ranks = ranks_from_json(s.text_view(5));
            });
  return out;
}

}  // namespace tlscope::views
