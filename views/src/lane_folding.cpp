// Folding collective lanes into groups of alike ranks (lane_folding.hpp).
#include "tlscope/views/lane_folding.hpp"

#include "tlscope/views/rank_words.hpp"

#include <algorithm>
#include <unordered_map>

namespace tlscope::views {

namespace {

// Desync outranks a hang, a hang a straggler (as a bar shows its most serious problem).
int severity(ProblemKind k) {
  return k == ProblemKind::none ? 0 : 4 - static_cast<int>(k);
}

// Lanes of one order of collectives, split where the sorted mean lags leave a gap wider than
// the larger of kAlikeLagUs and the mean collective: a rank that is late every time does not
// hide in a group of ranks that are on time, while the jitter of ranks issuing a collective a
// few hundred µs apart (the sample runtime's threads) keeps them together.
std::vector<std::vector<int>> split_by_timing(const std::vector<int>& lanes,
                                              const std::vector<std::vector<uint32_t>>& bars_of,
                                              const CollectiveTimeline& t) {
  if (lanes.size() < 2) return {lanes};
  // The earliest start of each collective among these lanes; lag = start - that.
  std::map<std::pair<std::string_view, int64_t>, double> earliest;
  double total_duration = 0;
  size_t bars = 0;
  for (int lane : lanes) {
    for (uint32_t b : bars_of[static_cast<size_t>(lane)]) {
      const CollectiveBar& bar = t.bars[b];
      auto [it, inserted] = earliest.try_emplace({bar.pg_name, bar.seq}, bar.start_us);
      if (!inserted) it->second = std::min(it->second, bar.start_us);
      total_duration += bar.end_us - bar.start_us;
      ++bars;
    }
  }
  std::vector<std::pair<double, int>> lag;  // (mean lag, lane)
  for (int lane : lanes) {
    const auto& bars = bars_of[static_cast<size_t>(lane)];
    double sum = 0;
    for (uint32_t b : bars)
      sum += t.bars[b].start_us - earliest[{t.bars[b].pg_name, t.bars[b].seq}];
    lag.emplace_back(bars.empty() ? 0 : sum / static_cast<double>(bars.size()), lane);
  }
  std::sort(lag.begin(), lag.end());
  const double gap = std::max(kAlikeLagUs, bars ? total_duration / static_cast<double>(bars) : 0.0);
  std::vector<std::vector<int>> out(1);
  for (size_t i = 0; i < lag.size(); ++i) {
    if (i > 0 && lag[i].first - lag[i - 1].first > gap) out.emplace_back();
    out.back().push_back(lag[i].second);
  }
  for (auto& g : out) std::sort(g.begin(), g.end());
  return out;
}

// The kind of process group a collective ran on: its description without the digits that
// number the instances ("mesh_row_3" -> "mesh_row_"), so that ranks of a 2-D mesh, each in a
// row group and a column group of its own, compare alike; the group name when it has none.
std::string group_kind(const CollectiveBar& bar) {
  if (bar.pg_desc.empty()) return "pg " + bar.pg_name;
  std::string kind;
  for (char c : bar.pg_desc)
    if (c < '0' || c > '9') kind += c;
  return kind;
}

}  // namespace

size_t LaneFolding::folded_groups() const {
  return static_cast<size_t>(std::count_if(groups.begin(), groups.end(),
                                           [](const LaneGroup& g) { return g.lanes.size() > 1; }));
}

LaneFolding fold_collective_lanes(const CollectiveTimeline& t) {
  LaneFolding f;
  const size_t n = t.lanes.size();
  std::map<std::pair<int32_t, int64_t>, int> lane_index;
  for (size_t i = 0; i < n; ++i)
    lane_index.emplace(std::make_pair(t.lanes[i].run, t.lanes[i].rank), static_cast<int>(i));
  auto lane_of = [&](int32_t run, int64_t rank) {
    auto it = lane_index.find({run, rank});
    return it == lane_index.end() ? -1 : it->second;
  };

  // Each lane's collectives in start order.
  std::vector<std::vector<uint32_t>> bars_of(n);
  for (size_t i = 0; i < t.bars.size(); ++i) {
    const int lane = lane_of(t.bars[i].run, t.bars[i].rank);
    if (lane >= 0) bars_of[static_cast<size_t>(lane)].push_back(static_cast<uint32_t>(i));
  }
  for (auto& bars : bars_of)
    std::stable_sort(bars.begin(), bars.end(), [&](uint32_t a, uint32_t b) {
      return t.bars[a].start_us < t.bars[b].start_us;
    });

  // Outliers are the ranks a finding names (a hang times out every rank; only the missing one
  // is at fault, and only it carries a marker).
  std::vector<ProblemKind> problem(n, ProblemKind::none);
  std::vector<bool> outlier(n, false);
  for (const ProblemMarker& m : t.markers) {
    const int lane = lane_of(m.run, m.rank);
    if (lane < 0) continue;
    outlier[static_cast<size_t>(lane)] = true;
    ProblemKind& p = problem[static_cast<size_t>(lane)];
    if (severity(m.kind) > severity(p)) p = m.kind;
  }

  // Alike: the same collectives (kind of group, seq, op, sizes) in one run. Each group's
  // collectives are in seq order already; sorting the entries leaves out how a rank's threads
  // interleaved two groups. The signature is a string so that equal ones meet in one hash
  // bucket; at 1,024 ranks of a few hundred collectives each it is a few hundred kB, built once.
  std::unordered_map<std::string, size_t> order_of;
  std::vector<std::vector<int>> orders;
  std::vector<int> singles;
  for (size_t i = 0; i < n; ++i) {
    if (outlier[i]) {
      singles.push_back(static_cast<int>(i));
      continue;
    }
    std::vector<std::string> entries;
    entries.reserve(bars_of[i].size());
    for (uint32_t b : bars_of[i]) {
      const CollectiveBar& bar = t.bars[b];
      entries.push_back(group_kind(bar) + ':' + std::to_string(bar.seq) + ':' + bar.op + ':' +
                        bar.input_sizes);
    }
    std::sort(entries.begin(), entries.end());
    std::string sig = std::to_string(t.lanes[i].run) + ";";
    for (const std::string& e : entries) sig += e + ';';
    auto [it, inserted] = order_of.try_emplace(std::move(sig), orders.size());
    if (inserted) orders.emplace_back();
    orders[it->second].push_back(static_cast<int>(i));
  }

  std::vector<std::vector<int>> members;
  for (const auto& lanes : orders)
    for (auto& g : split_by_timing(lanes, bars_of, t)) members.push_back(std::move(g));
  for (int lane : singles) members.push_back({lane});
  // Lanes are sorted by (run, rank), so a group's first lane orders it.
  std::sort(members.begin(), members.end(),
            [](const std::vector<int>& a, const std::vector<int>& b) { return a[0] < b[0]; });

  f.group_of_lane.assign(n, -1);
  const bool runs = t.runs.runs.size() > 1;
  for (auto& lanes : members) {
    LaneGroup g;
    g.lanes = std::move(lanes);
    g.run = t.lanes[static_cast<size_t>(g.lanes[0])].run;
    for (int lane : g.lanes) g.ranks.push_back(t.lanes[static_cast<size_t>(lane)].rank);
    g.outlier = outlier[static_cast<size_t>(g.lanes[0])];
    g.problem = problem[static_cast<size_t>(g.lanes[0])];
    g.label = runs ? "run " + std::to_string(g.run + 1) + " \xC2\xB7 " : "";
    if (g.ranks.size() == 1)
      g.label += "rank " + std::to_string(g.ranks[0]);
    else
      g.label += "ranks " + views::rank_runs(g.ranks, 6) + " (" +
                 views::grouped_number(static_cast<int64_t>(g.ranks.size())) + ")";
    const int index = static_cast<int>(f.groups.size());
    for (int lane : g.lanes) {
      f.group_of_lane[static_cast<size_t>(lane)] = index;
      f.group_of_rank[{g.run, t.lanes[static_cast<size_t>(lane)].rank}] = index;
    }
    f.groups.push_back(std::move(g));
  }
  return f;
}

std::vector<LaneRow> lane_rows(const LaneFolding& folding, const std::vector<uint8_t>& open) {
  std::vector<LaneRow> rows;
  for (size_t g = 0; g < folding.groups.size(); ++g) {
    const LaneGroup& group = folding.groups[g];
    const bool is_open = g < open.size() && open[g];
    if (group.lanes.size() > 1 && !is_open) {
      rows.push_back({static_cast<int>(g), group.lanes[0], true});
      continue;
    }
    for (int lane : group.lanes) rows.push_back({static_cast<int>(g), lane, false});
  }
  return rows;
}

}  // namespace tlscope::views
