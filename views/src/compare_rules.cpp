// The wait and config rules of a comparison (compare_rules.hpp).
#include "compare_rules.hpp"

#include <cstdio>
#include <map>
#include <utility>

#include "tlscope/views/run_text.hpp"

namespace tlscope::views {

namespace {

// A config value as compared: a list or set of names is printed in the process's set order,
// which string hashing changes from run to run, so its items are sorted first.
std::string config_value_key(const std::string& value) {
  std::string v = comparable_text(value);
  if (v.size() < 2 ||
      !((v.front() == '[' && v.back() == ']') || (v.front() == '{' && v.back() == '}')))
    return v;
  if (v.find_first_of("[{:", 1) < v.size() - 1) return v;  // nested, or a dict: as is
  std::vector<std::string> items;
  size_t start = 1;
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] == ',' || i == v.size() - 1) {
      size_t b = start, e = i;
      while (b < e && v[b] == ' ') ++b;
      items.push_back(v.substr(b, e - b));
      start = i + 1;
    }
  std::sort(items.begin(), items.end());
  std::string key(1, v.front());
  for (const std::string& item : items) key += item + ",";
  return key;
}

}  // namespace

std::string seconds_text(double us) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", us / 1e6);
  return text;
}

bool is_collective_finding(const std::string& kind) {
  return kind == "desync" || kind == "missing_collective" || kind == "straggler";
}

void compare_waits(const RunFacts& a, const RunFacts& b, const std::set<int64_t>& shared_ranks,
                   DifferenceList& diffs) {
  if (a.waits.empty() || b.waits.empty()) return;  // a run without matched collectives: unknown
  using Place = std::pair<std::string, int64_t>;   // group, sequence
  auto caused = [](const RunFacts& run, std::set<Place>& places) {
    for (const FindingFact& f : run.findings)
      if (is_collective_finding(f.kind) && f.seq >= 0) places.insert({f.pg, f.seq});
  };
  std::set<Place> cause;
  caused(a, cause);
  caused(b, cause);
  if (cause.empty()) return;
  struct Waits {
    double a = -1, b = -1;  // -1: not matched in that run
  };
  std::map<std::pair<int64_t, Place>, Waits> at;  // per rank and collective
  auto scan = [&](const RunFacts& run, bool is_b) {
    for (const CollectiveFact& c : run.collectives) {
      if (c.wait_us < 0 || !shared_ranks.count(c.rank)) continue;
      Waits& w = at[{c.rank, Place{c.pg, c.seq}}];
      (is_b ? w.b : w.a) = c.wait_us;
    }
  };
  scan(a, false);
  scan(b, true);
  double noise_us = 0;
  for (const auto& [key, w] : at)
    if (w.a >= 0 && w.b >= 0 && !cause.count(key.second))
      noise_us = std::max(noise_us, std::fabs(w.b - w.a));
  std::map<int64_t, double> change;  // rank -> its change above the noise
  for (const auto& [key, w] : at)
    if (w.a >= 0 && w.b >= 0 && cause.count(key.second) && std::fabs(w.b - w.a) > noise_us)
      change[key.first] += w.b - w.a;
  std::map<int64_t, std::pair<double, double>> totals;  // rank -> (A, B)
  for (const RankWait& w : a.waits) totals[w.rank].first = w.wait_us;
  for (const RankWait& w : b.waits) totals[w.rank].second = w.wait_us;
  for (const auto& [rank, delta] : change) {
    if (std::fabs(delta) < kMinDeltaUs) continue;
    const auto [ta, tb] = totals[rank];
    diffs.add(DifferenceKind::collective_wait, "wait in collectives", seconds_text(ta),
              seconds_text(tb), rank, delta);
  }
}

void compare_config(const RunFacts& a, const RunFacts& b, DifferenceList& diffs,
                    std::vector<std::string>& notes) {
  // Only keys both logs state: a log without inductor_config says nothing of its values.
  size_t changed = 0;
  for (const auto& [key, va] : a.config) {
    auto it = b.config.find(key);
    if (it == b.config.end() || config_value_key(va) == config_value_key(it->second)) continue;
    diffs.add(DifferenceKind::config_changed, key, va, it->second, -1);
    ++changed;
  }
  if (changed > 0)
    notes.push_back("the runs used different config (" + std::to_string(changed) +
                    " value(s), under environment): a difference may come from it");
}

}  // namespace tlscope::views
