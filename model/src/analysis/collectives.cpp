// Collective timelines from the runtime's collective_op records (docs/collectives-format.md): one
// row per record, the k-th collective of each process group matched across its ranks (agreement,
// arrival skew, wait, bandwidth), per-group totals and per-rank lateness.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis_schema.hpp"
#include "passes.hpp"
#include "tlscope/model/sqlite.hpp"
#include "words.hpp"

namespace tlscope::model::analysis {

namespace {

struct Record {
  int64_t rank = 0;
  std::string op, sizes, dtype, state, pg_desc, pg_ranks;
  int64_t bytes = 0;
  double created = 0, started = 0, completed = 0;
  bool has_started = false, has_completed = false;
};

// The value most ranks hold; on a tie, the one held by the lowest rank.
std::string majority(const std::vector<Record>& recs, std::string Record::*field) {
  std::map<std::string, std::pair<size_t, int64_t>> votes;  // value -> (count, lowest rank)
  for (const Record& r : recs) {
    auto [it, fresh] = votes.try_emplace(r.*field, 0, r.rank);
    it->second.first++;
    if (!fresh) it->second.second = std::min(it->second.second, r.rank);
  }
  auto best = votes.begin();
  for (auto it = votes.begin(); it != votes.end(); ++it)
    if (it->second.first > best->second.first ||
        (it->second.first == best->second.first && it->second.second < best->second.second))
      best = it;
  return best->first;
}

struct Lateness {
  int64_t times_last = 0, collectives = 0;
  double wait_caused = 0;
};

}  // namespace

void build_collectives(sqlite3* db) {
  exec(db,
       "INSERT INTO collectives(event_id, file_id, rank, compile_id, pg_name, pg_desc, pg_ranks, "
       "pg_size, seq, op, input_sizes, output_sizes, dtype, in_nelems, out_nelems, bytes, state, "
       "created_us, started_us, completed_us, timeout_ms, peer) "
       "SELECT a.event_id, a.file_id, COALESCE(f.rank, a.rank), " +
           compile_key_sql("a.compile_id") +
           ", "
           "CAST(json_extract(p.text, '$.pg_name') AS TEXT), json_extract(p.text, '$.pg_desc'), "
           "json_extract(p.text, '$.pg_ranks'), json_extract(p.text, '$.pg_size'), "
           "json_extract(p.text, '$.collective_seq_id'), json_extract(p.text, '$.op'), "
           "json_extract(p.text, '$.input_sizes'), json_extract(p.text, '$.output_sizes'), "
           "COALESCE(json_extract(p.text, '$.input_dtypes[0]'), "
           "  json_extract(p.text, '$.output_dtypes[0]')), "
           "json_extract(p.text, '$.in_msg_nelems'), json_extract(p.text, '$.out_msg_nelems'), "
           "json_extract(p.text, '$.bytes'), json_extract(p.text, '$.state'), "
           "json_extract(p.text, '$.time_created_us'), json_extract(p.text, '$.time_started_us'), "
           "json_extract(p.text, '$.time_completed_us'), json_extract(p.text, '$.timeout_ms'), "
           "json_extract(p.text, '$.peer') "
           "FROM artifacts a JOIN files f ON f.id = a.file_id JOIN payloads p ON p.id = "
           "a.payload_id "
           "WHERE a.name = 'collective_op' AND json_valid(p.text) "
           "AND json_extract(p.text, '$.collective_seq_id') IS NOT NULL ORDER BY a.event_id");

  exec(db, "CREATE INDEX collectives_pg_seq ON collectives(pg_name, seq, rank)");
  // The matches, the lateness and the group totals all come from the rows just written.
  if (!has_rows(db, "collectives")) return;
  Statement q(db,
              "SELECT pg_name, seq, rank, COALESCE(op, ''), COALESCE(input_sizes, ''), "
              "COALESCE(dtype, ''), COALESCE(state, ''), COALESCE(pg_desc, ''), "
              "COALESCE(pg_ranks, '[]'), COALESCE(bytes, 0), created_us, started_us, "
              "completed_us FROM collectives WHERE pg_name IS NOT NULL AND rank IS NOT NULL "
              "ORDER BY pg_name, seq, rank");
  Statement insert(
      db,
      "INSERT INTO collective_matches(pg_name, pg_desc, seq, expected_ranks, present_ranks, "
      "missing_ranks, op, ops_agree, sizes_agree, dtypes_agree, timed_out_ranks, bytes, "
      "first_arrival_us, last_arrival_us, arrival_skew_us, last_rank, wait_us, duration_us, "
      "bandwidth_gbps, last_lag_us, others_spread_us, last_idle_excess_us) VALUES (?1, ?2, ?3, "
      "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)");
  std::map<std::pair<std::string, int64_t>, Lateness> lateness;
  // Per rank, when its previous collective (of any group) completed, and its compile intervals: a
  // rank that arrives late because it woke late from the previous collective, or because it was
  // compiling, is not a straggler; one that idled (or computed) longer than the others is.
  std::map<int64_t, std::vector<double>> completions;  // per rank, every group, sorted
  {
    Statement c(db,
                "SELECT rank, completed_us FROM collectives WHERE rank IS NOT NULL AND "
                "completed_us IS NOT NULL ORDER BY rank, completed_us");
    while (c.step()) completions[c.int64(0)].push_back(c.real(1));
  }
  auto previous_completion = [&](int64_t rank, double before) -> std::optional<double> {
    const auto& v = completions[rank];
    auto it = std::lower_bound(v.begin(), v.end(), before);
    if (it == v.begin()) return std::nullopt;
    return *--it;
  };
  std::map<int64_t, std::vector<std::pair<double, double>>> compiling;
  {
    Statement c(db,
                "SELECT rank, start_us, start_us + duration_us FROM compile_phases "
                "WHERE source = 'chromium' AND phase = 'dynamo' AND rank IS NOT NULL");
    while (c.step()) compiling[c.int64(0)].emplace_back(c.real(1), c.real(2));
  }
  auto compile_time_within = [&](int64_t rank, double from, double to) {
    double total = 0;
    for (const auto& [a, b] : compiling[rank])
      total += std::max(0.0, std::min(b, to) - std::max(a, from));
    return total;
  };

  std::string pg;
  int64_t seq = 0;
  std::vector<Record> recs;
  auto flush = [&]() {
    if (recs.empty()) return;
    std::string pg_ranks = majority(recs, &Record::pg_ranks);
    std::vector<int64_t> expected = int_list(pg_ranks);
    std::sort(expected.begin(), expected.end());
    std::vector<int64_t> present, timed_out;
    for (const Record& r : recs) {
      present.push_back(r.rank);
      if (r.state == "timed_out") timed_out.push_back(r.rank);
    }
    std::vector<int64_t> missing;
    for (int64_t r : expected)
      if (!std::binary_search(present.begin(), present.end(), r)) missing.push_back(r);
    std::string op = majority(recs, &Record::op);
    auto agree = [&](std::string Record::*field) {
      return std::all_of(recs.begin(), recs.end(),
                         [&](const Record& r) { return r.*field == recs.front().*field; });
    };
    const Record* last = &recs.front();
    double first_arrival = recs.front().created;
    for (const Record& r : recs) {
      first_arrival = std::min(first_arrival, r.created);
      if (r.created > last->created) last = &r;
    }
    double wait = 0;
    for (const Record& r : recs) wait += last->created - r.created;
    // How far the last rank trailed the median of the others, and how spread out the others were:
    // a straggler trails by much more than the others' usual spread. The median keeps one other
    // rank's scheduling hiccup from hiding (or faking) the lag.
    std::vector<double> arrivals;
    for (const Record& r : recs) arrivals.push_back(r.created);
    std::sort(arrivals.begin(), arrivals.end());
    std::optional<double> last_lag, others_spread;
    if (arrivals.size() >= 2) {
      size_t others = arrivals.size() - 1;  // arrivals[0 .. others-1], sorted
      double median =
          others % 2 ? arrivals[others / 2] : (arrivals[others / 2 - 1] + arrivals[others / 2]) / 2;
      last_lag = arrivals.back() - median;
      others_spread = arrivals[arrivals.size() - 2] - arrivals.front();
    }
    // The late rank's idle time before issuing (since its previous collective of any group
    // completed, minus time spent compiling) beyond the others' median idle time.
    std::optional<double> idle_excess;
    {
      std::vector<double> idle_others;
      std::optional<double> idle_last;
      bool all_known = true;
      for (const Record& r : recs) {
        auto prev = previous_completion(r.rank, r.created);
        if (!prev) {
          all_known = false;
          continue;
        }
        double idle = r.created - *prev - compile_time_within(r.rank, *prev, r.created);
        if (&r == last)
          idle_last = idle;
        else
          idle_others.push_back(idle);
      }
      if (all_known && idle_last && !idle_others.empty()) {
        std::sort(idle_others.begin(), idle_others.end());
        size_t n = idle_others.size();
        double median =
            n % 2 ? idle_others[n / 2] : (idle_others[n / 2 - 1] + idle_others[n / 2]) / 2;
        idle_excess = *idle_last - median;
      }
    }
    // Data moves once every rank has arrived: duration runs from the latest start to the latest
    // completion. Timed-out collectives moved nothing.
    std::optional<double> duration, bandwidth;
    if (timed_out.empty() && missing.empty()) {
      double start = 0, end = 0;
      bool ok = true;
      for (const Record& r : recs) {
        if (!r.has_started || !r.has_completed) ok = false;
        start = std::max(start, r.started);
        end = std::max(end, r.completed);
      }
      if (ok && end >= start) {
        duration = end - start;
        if (*duration > 0) bandwidth = static_cast<double>(recs.front().bytes) / *duration / 1e3;
      }
    }
    insert.bind(1, std::string_view(pg))
        .bind(2, std::string_view(majority(recs, &Record::pg_desc)));
    insert.bind(3, seq).bind(4, std::string_view(pg_ranks));
    insert.bind(5, std::string_view(ranks_json(present)));
    insert.bind(6, std::string_view(ranks_json(missing))).bind(7, std::string_view(op));
    insert.bind(8, int64_t{agree(&Record::op)}).bind(9, int64_t{agree(&Record::sizes)});
    insert.bind(10, int64_t{agree(&Record::dtype)});
    insert.bind(11, std::string_view(ranks_json(timed_out)));
    insert.bind(12, recs.front().bytes).bind(13, first_arrival).bind(14, last->created);
    insert.bind(15, last->created - first_arrival).bind(16, last->rank).bind(17, wait);
    insert.bind(18, duration).bind(19, bandwidth).bind(20, last_lag).bind(21, others_spread);
    insert.bind(22, idle_excess);
    insert.run();
    if (recs.size() > 1) {
      for (const Record& r : recs) lateness[{pg, r.rank}].collectives++;
      Lateness& l = lateness[{pg, last->rank}];
      l.times_last++;
      l.wait_caused += wait;
    }
    recs.clear();
  };
  while (q.step()) {
    std::string row_pg = q.text(0);
    int64_t row_seq = q.int64(1);
    if (!recs.empty() && (row_pg != pg || row_seq != seq)) flush();
    pg = row_pg;
    seq = row_seq;
    Record r;
    r.rank = q.int64(2);
    r.op = matched_op(q.text(3));
    r.sizes = q.text(4);
    r.dtype = q.text(5);
    r.state = q.text(6);
    r.pg_desc = q.text(7);
    r.pg_ranks = q.text(8);
    r.bytes = q.int64(9);
    r.created = q.real(10);
    r.has_started = !q.is_null(11);
    r.started = q.real(11);
    r.has_completed = !q.is_null(12);
    r.completed = q.real(12);
    recs.push_back(std::move(r));
  }
  flush();

  Statement late(db,
                 "INSERT INTO collective_rank_lateness(pg_name, rank, times_last, "
                 "collectives, wait_caused_us) VALUES (?1, ?2, ?3, ?4, ?5)");
  for (const auto& [key, l] : lateness) {
    late.bind(1, std::string_view(key.first)).bind(2, key.second).bind(3, l.times_last);
    late.bind(4, l.collectives).bind(5, l.wait_caused).run();
  }
  exec(db,
       "INSERT INTO collective_groups(pg_name, pg_desc, pg_ranks, collectives, bytes, "
       "busy_us, bandwidth_gbps, max_skew_us) "
       "SELECT pg_name, max(pg_desc), max(expected_ranks), count(*), sum(bytes), "
       "total(duration_us), CASE WHEN total(CASE WHEN duration_us > 0 THEN duration_us END) > 0 "
       "THEN total(CASE WHEN duration_us > 0 THEN bytes END) / "
       "total(CASE WHEN duration_us > 0 THEN duration_us END) / 1e3 END, max(arrival_skew_us) "
       "FROM collective_matches GROUP BY pg_name ORDER BY pg_name");
}

}  // namespace tlscope::model::analysis
