// The collective timeline from the analysis tables collectives, collective_matches and findings.
#include "tlscope/views/collective_timeline.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "tlscope/views/finding_words.hpp"

namespace tlscope::views {

namespace {

using BarKey = std::tuple<std::string, int64_t, int64_t>;  // pg_name, seq, rank

// Desync outranks a hang, a hang a straggler: a bar shows its most serious problem.
int severity(ProblemKind k) {
  switch (k) {
    case ProblemKind::desync:
      return 3;
    case ProblemKind::hang:
      return 2;
    case ProblemKind::straggler:
      return 1;
    case ProblemKind::none:
      return 0;
  }
  return 0;
}

struct RawFinding {
  int64_t id;
  std::string kind, pg_name;
  int64_t seq;
  std::vector<int64_t> ranks;
  std::string message;
};

}  // namespace

Result<CollectiveTimeline> load_collective_timeline(const Database& db, const TraceRuns& runs) {
  Result<CollectiveTimeline> out;
  CollectiveTimeline& t = out.value;
  t.runs = runs;
  std::vector<RawFinding> raw;
  std::map<BarKey, ProblemKind> flag;
  if (db.has_table("findings")) {
    const int64_t job_ranks =
        db.has_table("files") ? db.scalar("SELECT count(DISTINCT rank) FROM files") : 0;
    db.prepare("SELECT " + std::string(kFindingFactColumns) +
               " FROM findings WHERE kind IN ('desync', 'missing_collective', 'straggler', "
               "'bad_record') ORDER BY id")
        .for_each(
            [&](const Statement& st) {
              const FindingFacts facts = read_finding_facts(st);
              RawFinding f{facts.id,      facts.kind,
                           facts.pg_name, facts.seq.value_or(-1),
                           facts.ranks,   finding_sentence(facts, job_ranks)};
              t.findings.push_back({f.id, f.kind, f.message});
              const ProblemKind k = problem_of_finding(f.kind);
              if (k == ProblemKind::desync) ++t.desyncs;
              if (k == ProblemKind::hang) ++t.missing;
              if (k == ProblemKind::straggler) ++t.stragglers;
              for (int64_t r : f.ranks) {
                ProblemKind& fl = flag[{f.pg_name, f.seq, r}];
                if (severity(k) > severity(fl)) fl = k;
              }
              raw.push_back(std::move(f));
            },
            out);
  }
  if (!db.has_table("collectives")) return out;
  t.records = db.scalar("SELECT count(*) FROM collectives");
  if (db.has_table("collective_matches"))
    t.matched = db.scalar("SELECT count(*) FROM collective_matches");
  db.prepare(
        "SELECT id, file_id, coalesce(rank, -1), coalesce(pg_name, ''), coalesce(pg_desc, ''), "
        "coalesce(seq, -1), coalesce(op, ''), coalesce(input_sizes, ''), coalesce(dtype, ''), "
        "coalesce(bytes, 0), coalesce(state, ''), coalesce(created_us, started_us, 0), "
        "coalesce(completed_us, started_us, created_us, 0) FROM collectives "
        "ORDER BY pg_name, seq, rank, id")
      .for_each(
          [&](const Statement& st) {
            CollectiveBar b;
            b.id = st.int64(0);
            b.file_id = st.int64(1);
            b.run = runs.run_of(b.file_id);
            b.rank = st.int64(2);
            b.pg_name = st.text(3);
            b.pg_desc = st.text(4);
            b.seq = st.int64(5);
            b.op = st.text(6);
            b.input_sizes = st.text(7);
            b.dtype = st.text(8);
            b.bytes = st.int64(9);
            b.state = st.text(10);
            const double origin = runs.origin_us(b.run);
            b.start_us = st.real(11) - origin;
            b.end_us = std::max(b.start_us, st.real(12) - origin);
            b.kind = classify_collective(b.op);
            auto it = flag.find({b.pg_name, b.seq, b.rank});
            if (it != flag.end()) b.problem = it->second;
            if (b.state == "timed_out") {
              ++t.timed_out;
              if (b.problem == ProblemKind::none) b.problem = ProblemKind::hang;
            }
            t.bars.push_back(std::move(b));
          },
          out);

  // Lanes per (run, rank); bars of one (group, seq) are consecutive, so each links to the
  // previous rank's bar.
  std::map<std::pair<int32_t, int64_t>, int> lane_of;
  for (const auto& b : t.bars) lane_of.try_emplace({b.run, b.rank}, 0);
  std::map<std::pair<std::string, int64_t>, std::pair<int32_t, double>> begun;  // first start
  for (size_t i = 0; i < t.bars.size(); ++i) {
    const CollectiveBar& b = t.bars[i];
    if (i > 0 && t.bars[i - 1].pg_name == b.pg_name && t.bars[i - 1].seq == b.seq &&
        t.bars[i - 1].run == b.run)
      t.links.push_back({static_cast<uint32_t>(i - 1), static_cast<uint32_t>(i)});
    auto [it, inserted] = begun.try_emplace({b.pg_name, b.seq}, std::make_pair(b.run, b.start_us));
    if (!inserted && b.start_us < it->second.second) it->second = {b.run, b.start_us};
  }

  // Markers on the lanes of the ranks each finding names, where the collective began elsewhere.
  for (const RawFinding& f : raw) {
    const ProblemKind k = problem_of_finding(f.kind);
    if (k == ProblemKind::none) continue;
    auto where = begun.find({f.pg_name, f.seq});
    if (where == begun.end()) continue;  // no rank logged it: nothing to place it by
    for (int64_t r : f.ranks) {
      lane_of.try_emplace({where->second.first, r}, 0);
      t.markers.push_back(
          {k, f.id, where->second.first, r, f.pg_name, f.seq, where->second.second, f.message});
    }
  }
  for (auto& [key, lane] : lane_of) {
    lane = static_cast<int>(t.lanes.size());
    t.lanes.push_back({key.first, key.second});
  }
  return out;
}

int collective_lane(const CollectiveTimeline& t, int32_t run, int64_t rank) {
  // Lanes are sorted by (run, rank): the report looks up every bar's lane, 1,024 ranks deep.
  auto it = std::lower_bound(t.lanes.begin(), t.lanes.end(), std::make_pair(run, rank),
                             [](const CollectiveLane& l, const std::pair<int32_t, int64_t>& k) {
                               return std::make_pair(l.run, l.rank) < k;
                             });
  return it != t.lanes.end() && it->run == run && it->rank == rank
             ? static_cast<int>(it - t.lanes.begin())
             : -1;
}

int find_collective_bar(const CollectiveTimeline& t, std::string_view pg_name, int64_t seq) {
  for (size_t i = 0; i < t.bars.size(); ++i)
    if (t.bars[i].pg_name == pg_name && t.bars[i].seq == seq) return static_cast<int>(i);
  return -1;
}

std::string bar_label(const CollectiveBar& bar) {
  return bar.op + " #" + std::to_string(bar.seq);
}

std::string bar_detail(const CollectiveBar& bar) {
  return "pg " + bar.pg_name + " (" + bar.pg_desc + ")  " + bar.input_sizes + " " + bar.dtype +
         "  " + std::to_string(bar.bytes) + " B  " + bar.state;
}

std::vector<TimelineInterval> collective_intervals(const CollectiveTimeline& t) {
  std::vector<TimelineInterval> out;
  out.reserve(t.bars.size());
  for (size_t i = 0; i < t.bars.size(); ++i) {
    const CollectiveBar& b = t.bars[i];
    TimelineInterval iv;
    iv.run = b.run;
    iv.rank = b.rank;
    iv.thread = "collectives";
    iv.name = bar_label(b);
    iv.start_us = b.start_us;
    iv.end_us = b.end_us;
    iv.source_id = static_cast<int64_t>(i);
    iv.source = TimelineSource::collective;
    iv.kind = static_cast<uint8_t>(b.kind);
    iv.problem = b.problem != ProblemKind::none;
    out.push_back(std::move(iv));
  }
  return out;
}

}  // namespace tlscope::views
