// Matching of per-rank collective records into cross-rank groups.
#include "collective_match.hpp"

#include <algorithm>
#include <set>

namespace tlscope::exporters {

CollectiveSet load_collectives(const Database& db, double straggler_us) {
  CollectiveSet set;
  if (!db.has_table("artifacts")) return set;
  Statement s = db.prepare(
      "SELECT coalesce(e.rank, -1), json_extract(p.text, '$.pg_name'), "
      "coalesce(json_extract(p.text, '$.pg_desc'), ''), json_extract(p.text, '$.collective_seq_id'), "
      "coalesce(json_extract(p.text, '$.op'), ''), coalesce(json_extract(p.text, '$.input_sizes'), ''), "
      "coalesce(json_extract(p.text, '$.input_dtypes'), ''), coalesce(json_extract(p.text, '$.state'), ''), "
      "coalesce(json_extract(p.text, '$.bytes'), 0), coalesce(json_extract(p.text, '$.pg_size'), 0), "
      "coalesce(json_extract(p.text, '$.time_created_us'), 0), "
      "coalesce(json_extract(p.text, '$.time_started_us'), 0), "
      "coalesce(json_extract(p.text, '$.time_completed_us'), 0), "
      "coalesce(json_extract(p.text, '$.pg_ranks'), '[]'), coalesce(e.compile_id, '') "
      "FROM artifacts a JOIN events e ON e.id = a.event_id JOIN payloads p ON p.id = a.payload_id "
      "WHERE a.name = 'collective_op' AND json_valid(p.text) ORDER BY e.id");
  std::map<std::pair<std::string, int64_t>, size_t> group_of;
  while (s.step()) {
    CollectiveRecord r;
    r.rank = s.int64(0);
    r.pg_name = s.text(1);
    r.pg_desc = s.text(2);
    r.seq = s.int64(3);
    r.op = s.text(4);
    r.sizes = s.text(5);
    r.dtype = s.text(6);
    r.state = s.text(7);
    r.bytes = s.int64(8);
    r.pg_size = s.int64(9);
    r.created = s.real(10);
    r.started = s.real(11);
    r.completed = s.real(12);
    r.compile_id = s.text(14);
    std::string ranks = s.text(13);
    for (size_t i = 0; i < ranks.size();) {
      if (std::isdigit(static_cast<unsigned char>(ranks[i]))) {
        size_t j = i;
        while (j < ranks.size() && std::isdigit(static_cast<unsigned char>(ranks[j]))) ++j;
        r.pg_ranks.push_back(std::stoll(ranks.substr(i, j - i)));
        i = j;
      } else {
        ++i;
      }
    }
    if (r.completed < r.created) r.completed = r.created;
    auto [it, inserted] = group_of.try_emplace({r.pg_name, r.seq}, set.groups.size());
    if (inserted) set.groups.push_back({r.pg_name, r.seq, {}, {}});
    set.groups[it->second].members.push_back(set.records.size());
    set.records.push_back(std::move(r));
  }
  for (CollectiveGroup& g : set.groups) {
    // Desync: ranks whose (op, sizes, dtype) differ from the most common signature.
    std::map<std::string, int> votes;
    for (size_t m : g.members) {
      const CollectiveRecord& r = set.records[m];
      ++votes[r.op + "|" + r.sizes + "|" + r.dtype];
    }
    auto majority = std::max_element(votes.begin(), votes.end(),
                                     [](auto& a, auto& b) { return a.second < b.second; });
    for (size_t m : g.members) {
      CollectiveRecord& r = set.records[m];
      if (votes.size() > 1 && r.op + "|" + r.sizes + "|" + r.dtype != majority->first) {
        r.flag = "desync";
        r.note = "issued " + r.op + " " + r.sizes + " while the others issued " +
                 majority->first.substr(0, majority->first.find('|'));
        g.desync = true;
      }
    }
    // Hang: a rank gave up waiting; missing: ranks of the group that never issued it.
    std::set<int64_t> present;
    for (size_t m : g.members) present.insert(set.records[m].rank);
    const CollectiveRecord& first = set.records[g.members.front()];
    for (int64_t rank : first.pg_ranks)
      if (!present.count(rank)) g.missing_ranks.push_back(rank);
    for (size_t m : g.members) {
      CollectiveRecord& r = set.records[m];
      if (r.state == "timed_out") {
        if (r.flag == "ok") r.flag = "hang";
        r.note += (r.note.empty() ? "" : "; ") + std::string("timed out waiting for peers");
        g.hang = true;
      }
    }
    // Straggler: the last rank to arrive, far behind the first.
    if (g.members.size() > 1) {
      double first_in = 1e300, last_in = -1e300, end = -1e300;
      size_t last = g.members.front();
      for (size_t m : g.members) {
        const CollectiveRecord& r = set.records[m];
        first_in = std::min(first_in, r.created);
        end = std::max(end, r.completed);
        if (r.created > last_in) last_in = r.created, last = m;
      }
      double lag = last_in - first_in;
      if (lag > straggler_us && lag > 0.5 * (end - first_in)) {
        CollectiveRecord& r = set.records[last];
        if (r.flag == "ok") r.flag = "straggler";
        r.note += (r.note.empty() ? "" : "; ") + std::string("arrived ") +
                  std::to_string(static_cast<int64_t>(lag / 1000)) + " ms after the first rank";
        g.straggler = true;
      }
    }
    set.desyncs += g.desync;
    set.hangs += g.hang;
    set.stragglers += g.straggler;
    set.missing += !g.missing_ranks.empty();
  }
  return set;
}

}  // namespace tlscope::exporters
