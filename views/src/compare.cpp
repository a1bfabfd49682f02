// Matching two runs and listing what differs (compare.hpp); reading the runs is
// compare_read.cpp, the wait and config rules compare_rules.cpp. Values that merely shift
// between runs (frame and compile ids, object ids, addresses, pids, temp paths, timestamps) never
// make a difference: frames are keyed by location, compiles by their order within the frame, and
// log text goes through comparable_text first.
#include "tlscope/views/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "compare_compile_texts.hpp"
#include "compare_read.hpp"
#include "compare_rules.hpp"
#include "compare_timeline.hpp"
#include "difference_list.hpp"
#include "tlscope/views/rank_words.hpp"
#include "tlscope/views/run_environment.hpp"
#include "tlscope/views/run_text.hpp"

namespace tlscope::views {

namespace {

using FrameKey = std::tuple<std::string, std::string, int64_t>;  // file, function, line

FrameKey frame_key(const CompileFact& c) {
  return {comparable_text(c.file), c.function, c.line};
}

// A run's frames in order of their first compile, each with its compiles per rank in
// frame_compile_id order.
struct RunFrame {
  FrameKey key;
  std::map<int64_t, std::vector<const CompileFact*>> by_rank;
  FrameMatch counts;  // only the side's own counts are filled
};

std::vector<RunFrame> frames_of(const RunFacts& run) {
  std::vector<RunFrame> frames;
  std::map<FrameKey, size_t> index;
  for (const CompileFact& c : run.compiles) {
    auto [it, fresh] = index.try_emplace(frame_key(c), frames.size());
    if (fresh) frames.push_back({frame_key(c), {}, {}});
    RunFrame& f = frames[it->second];
    f.by_rank[c.rank].push_back(&c);
    ++f.counts.compiles_a;
    f.counts.completed_a += c.outcome == CompileOutcome::completed;
    f.counts.failed_a += c.outcome == CompileOutcome::failed;
    f.counts.recompiles_a += c.recompile;
  }
  for (RunFrame& f : frames)
    for (auto& [rank, list] : f.by_rank)
      std::stable_sort(list.begin(), list.end(), [](const CompileFact* x, const CompileFact* y) {
        return x->frame_compile_id < y->frame_compile_id;
      });
  return frames;
}

std::string frame_subject(const FrameKey& k) {
  const auto& [file, function, line] = k;
  std::string where = file;
  if (line >= 0) where += ":" + std::to_string(line);
  if (function.empty()) return where.empty() ? "(frame without a location)" : where;
  return where.empty() ? function : function + " (" + where + ")";
}

std::string compile_subject(const std::string& frame, size_t index) {
  return frame + " compile #" + std::to_string(index);
}

std::string outcome_text(const CompileFact& c) {
  switch (c.outcome) {
    case CompileOutcome::completed:
      return "completed";
    case CompileOutcome::failed:
      return c.fail_type.empty() ? "failed" : c.fail_type;
    case CompileOutcome::unfinished:
      return "unfinished";
  }
  return "";
}

// Frames matched by location, then what is left by file + function in order (the source was
// edited and lines moved). Returns pairs of indices (-1: only in one run).
std::vector<std::pair<int, int>> match_frames(const std::vector<RunFrame>& a,
                                              const std::vector<RunFrame>& b) {
  std::vector<std::pair<int, int>> pairs;
  std::vector<bool> used_b(b.size(), false);
  std::vector<int> partner(a.size(), -1);
  std::map<FrameKey, int> b_index;
  for (size_t j = 0; j < b.size(); ++j) b_index.emplace(b[j].key, static_cast<int>(j));
  for (size_t i = 0; i < a.size(); ++i)
    if (auto it = b_index.find(a[i].key); it != b_index.end()) {
      partner[i] = it->second;
      used_b[static_cast<size_t>(it->second)] = true;
    }
  for (size_t i = 0; i < a.size(); ++i) {
    if (partner[i] >= 0 || std::get<1>(a[i].key).empty()) continue;
    // The next unmatched frame of B with this file and function, in order.
    for (size_t j = 0; j < b.size(); ++j) {
      if (used_b[j] || std::get<0>(b[j].key) != std::get<0>(a[i].key) ||
          std::get<1>(b[j].key) != std::get<1>(a[i].key))
        continue;
      partner[i] = static_cast<int>(j);
      used_b[j] = true;
      break;
    }
  }
  for (size_t i = 0; i < a.size(); ++i) pairs.push_back({static_cast<int>(i), partner[i]});
  for (size_t j = 0; j < b.size(); ++j)
    if (!used_b[j]) pairs.push_back({-1, static_cast<int>(j)});
  return pairs;
}

using CompileKey = std::pair<int64_t, std::string>;  // file_id, compile key

template <typename Fact>
std::map<CompileKey, std::vector<const Fact*>> by_compile(const std::vector<Fact>& facts) {
  std::map<CompileKey, std::vector<const Fact*>> out;
  for (const Fact& f : facts) out[{f.file_id, f.compile_id}].push_back(&f);
  return out;
}

struct Sides {
  const RunFacts& a;
  const RunFacts& b;
  std::map<CompileKey, std::vector<const CacheFact*>> cache_a, cache_b;
  std::map<CompileKey, std::vector<const PhaseFact*>> phase_a, phase_b;
  std::map<CompileKey, std::vector<const InputFact*>> input_a, input_b;
  TextSides dbs;
  CompileTextMemo text_memo;
};

std::string cache_sequence(const std::vector<const CacheFact*>* facts, const std::string& cache) {
  std::string out;
  if (!facts) return out;
  for (const CacheFact* f : *facts)
    if (f->cache == cache) {
      out += (out.empty() ? "" : ", ") + f->result;
      if (!f->reason.empty()) out += " (" + comparable_text(f->reason) + ")";
    }
  return out;
}

std::string inputs_text(const std::vector<const InputFact*>* facts) {
  std::string out;
  if (!facts) return out;
  for (const InputFact* f : *facts) {
    out += (out.empty() ? "" : "; ") + f->source + " " + f->dtype + f->size;
    if (f->requires_grad == 1) out += " requires_grad";
  }
  return out;
}

template <typename Map>
const typename Map::mapped_type* find_in(const Map& m, const CompileKey& k) {
  auto it = m.find(k);
  return it == m.end() ? nullptr : &it->second;
}

struct PhaseSums {
  std::map<std::string, std::pair<double, double>> by_phase;  // phase -> (a, b)
  std::vector<std::string> order;
  // The same compile (frame, compile #k) on each rank does the same work, so how far its phase
  // times spread across the ranks of one run is that run's timing noise: per (frame, k, phase),
  // the lowest and highest time of each run.
  std::map<std::tuple<int64_t, size_t, std::string>,
           std::pair<std::pair<double, double>, std::pair<double, double>>>
      range;
  std::set<int64_t> ranks;  // the ranks whose compiles were summed
  // Per phase, each compile pair's own time in each run (row of the aligned lists, A, B): which
  // compiles a phase's change comes from.
  std::map<std::string, std::vector<std::tuple<int64_t, double, double>>> by_row;
};

// A compile pair's phase times, from the source both logs have (chromium events when both do).
void add_phase_times(PhaseSums& sums, int64_t rank, int64_t frame, size_t index, int64_t row,
                     const std::vector<const PhaseFact*>* a,
                     const std::vector<const PhaseFact*>* b) {
  if (!a || !b) return;
  sums.ranks.insert(rank);
  auto has = [](const std::vector<const PhaseFact*>& v, const char* source) {
    return std::any_of(v.begin(), v.end(), [&](const PhaseFact* p) { return p->source == source; });
  };
  const char* source = has(*a, "chromium") && has(*b, "chromium") ? "chromium" : "metrics";
  std::map<std::string, std::pair<double, double>> own;  // this pair's time per phase
  auto add = [&](const std::vector<const PhaseFact*>& v, bool is_b) {
    for (const PhaseFact* p : v) {
      if (p->source != source) continue;
      auto [it, fresh] = sums.by_phase.try_emplace(p->phase, 0.0, 0.0);
      if (fresh) sums.order.push_back(p->phase);
      (is_b ? it->second.second : it->second.first) += p->duration_us;
      auto& mine = own[p->phase];
      (is_b ? mine.second : mine.first) += p->duration_us;
      constexpr double kNone = -1;
      auto [r, first] = sums.range.try_emplace({frame, index, p->phase}, std::pair{kNone, kNone},
                                               std::pair{kNone, kNone});
      auto& [lo, hi] = is_b ? r->second.second : r->second.first;
      lo = lo < 0 ? p->duration_us : std::min(lo, p->duration_us);
      hi = std::max(hi, p->duration_us);
    }
  };
  add(*a, false);
  add(*b, true);
  for (const auto& [phase, times] : own)
    sums.by_row[phase].emplace_back(row, times.first, times.second);
}

// The rows a phase's change of `delta_us` comes from: the compiles whose own time moved the same
// way by at least a quarter of it (and kMinDeltaUs), the largest first, at most a few. None when
// the change is spread thinly over many compiles: then it is the run's, not a row's.
std::vector<int64_t> phase_rows(const PhaseSums& sums, const std::string& phase, double delta_us);

// How much a phase's summed time moves between ranks of each run: over the compiles several
// ranks ran, the spread (highest minus lowest) of each run, added up.
double phase_noise_us(const PhaseSums& sums, const std::string& phase) {
  double noise = 0;
  for (const auto& [key, ranges] : sums.range) {
    if (std::get<2>(key) != phase) continue;
    for (const auto& [lo, hi] : {ranges.first, ranges.second})
      if (lo >= 0) noise += hi - lo;
  }
  return noise;
}

// Adds the aligned-list row of a compile pair (either side may be missing) and makes it the
// anchor of the differences found next.
void add_compile_pair(Comparison& out, DifferenceList& diffs, int64_t frame, size_t index,
                      const std::string& subject, const CompileFact* x, const CompileFact* y) {
  CompilePair& p = out.compiles.emplace_back();
  p.frame = frame;
  p.index = index;
  p.subject = subject;
  if (x) {
    p.rank_a = x->rank;
    p.compile_a = x->compile_id;
    p.outcome_a = outcome_text(*x);
    p.recompile_a = x->recompile;
    p.file_a = x->file_id;
  }
  if (y) {
    p.rank_b = y->rank;
    p.compile_b = y->compile_id;
    p.outcome_b = outcome_text(*y);
    p.recompile_b = y->recompile;
    p.file_b = y->file_id;
  }
  p.status = x && y ? FrameStatus::matched : x ? FrameStatus::only_a : FrameStatus::only_b;
  diffs.anchor(frame, static_cast<int64_t>(out.compiles.size() - 1));
}

void compare_compiles(const std::string& frame, int64_t frame_index,
                      const std::vector<const CompileFact*>& ca,
                      const std::vector<const CompileFact*>& cb, int64_t rank, Sides& s,
                      DifferenceList& diffs, PhaseSums& sums, Comparison& out,
                      std::set<std::string>& input_notes) {
  const size_t n = std::max(ca.size(), cb.size());
  for (size_t k = 0; k < n; ++k) {
    const CompileFact* x = k < ca.size() ? ca[k] : nullptr;
    const CompileFact* y = k < cb.size() ? cb[k] : nullptr;
    const std::string subject = compile_subject(frame, k);
    add_compile_pair(out, diffs, frame_index, k, subject, x, y);
    if (!x || !y) {
      out.same_work = false;
      const CompileFact* only = x ? x : y;
      const bool in_b = y != nullptr;
      std::optional<std::string> value;
      DifferenceKind kind;
      if (only->outcome == CompileOutcome::failed) {
        kind = in_b ? DifferenceKind::failure_added : DifferenceKind::failure_removed;
        value = outcome_text(*only);
      } else if (only->recompile) {
        kind = in_b ? DifferenceKind::recompile_added : DifferenceKind::recompile_removed;
        value = comparable_text(only->recompile_reason);
      } else {
        kind = in_b ? DifferenceKind::compile_added : DifferenceKind::compile_removed;
        value = outcome_text(*only);
      }
      // Within a kind, the costliest first: the compile time the extra compile took.
      diffs.add(kind, subject, in_b ? std::nullopt : value, in_b ? value : std::nullopt, rank,
                std::max(0.0, only->duration_us));
      continue;
    }
    const bool fail_a = x->outcome == CompileOutcome::failed;
    const bool fail_b = y->outcome == CompileOutcome::failed;
    if (x->outcome != y->outcome) out.same_work = false;
    if (!fail_a && fail_b)
      diffs.add(DifferenceKind::failure_added, subject, outcome_text(*x), outcome_text(*y), rank);
    else if (fail_a && !fail_b)
      diffs.add(DifferenceKind::failure_removed, subject, outcome_text(*x), outcome_text(*y), rank);
    else if (fail_a && fail_b && x->fail_type != y->fail_type)
      diffs.add(DifferenceKind::failure_changed, subject, x->fail_type, y->fail_type, rank);
    const std::string guard_a = comparable_text(x->recompile_reason);
    const std::string guard_b = comparable_text(y->recompile_reason);
    if (!x->recompile && y->recompile)
      diffs.add(DifferenceKind::recompile_added, subject, std::nullopt, guard_b, rank,
                std::max(0.0, y->duration_us));
    else if (x->recompile && !y->recompile)
      diffs.add(DifferenceKind::recompile_removed, subject, guard_a, std::nullopt, rank);
    else if (x->recompile && y->recompile && guard_a != guard_b)
      diffs.add(DifferenceKind::guard_changed, subject, guard_a, guard_b, rank);
    if (x->restarts != y->restarts)
      diffs.add(DifferenceKind::restarts_changed, subject, std::to_string(x->restarts),
                std::to_string(y->restarts), rank);
    const CompileKey ka{x->file_id, x->compile_id}, kb{y->file_id, y->compile_id};
    const auto* cache_a = find_in(s.cache_a, ka);
    const auto* cache_b = find_in(s.cache_b, kb);
    std::set<std::string> caches;
    for (const auto* list : {cache_a, cache_b})
      if (list)
        for (const CacheFact* c : *list) caches.insert(c->cache);
    for (const std::string& cache : caches) {
      std::string ra = cache_sequence(cache_a, cache), rb = cache_sequence(cache_b, cache);
      if (ra != rb)
        diffs.add(DifferenceKind::cache_flip, subject + " " + cache,
                  ra.empty() ? std::nullopt : std::optional(ra),
                  rb.empty() ? std::nullopt : std::optional(rb), rank);
    }
    if (!x->compile_id.starts_with("!") && !y->compile_id.starts_with("!")) {
      auto text_of = [](const CompileTextIndex& index, const CompileFact* c) {
        auto it = index.find({c->file_id, c->frame_id, c->frame_compile_id});
        return it == index.end() ? nullptr : &it->second;
      };
      compare_compile_texts(s.dbs, text_of(s.a.texts, x), text_of(s.b.texts, y), subject, rank,
                            diffs, out.notes, s.text_memo);
    }
    if (x->outcome == CompileOutcome::completed && y->outcome == CompileOutcome::completed) {
      ++out.timed_compiles;
      add_phase_times(sums, rank, frame_index, k, static_cast<int64_t>(out.compiles.size() - 1),
                      find_in(s.phase_a, ka), find_in(s.phase_b, kb));
    }
    const std::string in_a = inputs_text(find_in(s.input_a, ka));
    const std::string in_b = inputs_text(find_in(s.input_b, kb));
    if (!in_a.empty() && !in_b.empty() && comparable_text(in_a) != comparable_text(in_b) &&
        input_notes.insert(frame).second)
      out.notes.push_back(subject + " saw different inputs (shapes, dtypes or grad mode): A " +
                          in_a + "; B " + in_b);
  }
}

using BreakPlace = std::pair<std::string, std::string>;  // file (or frame), comparable reason

// The row of the aligned lists holding each run's compile, by (side, rank, compile id): a graph
// break names the compile whose trace broke, and its difference is about that row.
using RowKey = std::tuple<RunSide, int64_t, std::string>;
std::map<RowKey, int64_t> rows_by_compile(const Comparison& c) {
  std::map<RowKey, int64_t> rows;
  for (size_t i = 0; i < c.compiles.size(); ++i) {
    const CompilePair& p = c.compiles[i];
    if (p.compile_a) rows.try_emplace({RunSide::a, p.rank_a, *p.compile_a}, i);
    if (p.compile_b) rows.try_emplace({RunSide::b, p.rank_b, *p.compile_b}, i);
  }
  return rows;
}

void compare_graph_breaks(const RunFacts& a, const RunFacts& b,
                          const std::set<int64_t>& shared_ranks, const Comparison& c,
                          DifferenceList& diffs) {
  // Per rank: (place, reason) -> the lines it broke at, each with the compile that broke there
  // first (the first record of that line).
  using Places = std::map<int64_t, std::map<BreakPlace, std::map<int64_t, std::string>>>;
  auto collect = [&](const RunFacts& run) {
    Places p;
    for (const GraphBreakFact& g : run.breaks) {
      if (!is_graph_break_record(g) || !shared_ranks.count(g.rank)) continue;
      std::string place = g.user_file.empty() ? g.frame : comparable_text(g.user_file);
      p[g.rank][{place, comparable_text(g.reason)}].try_emplace(g.user_line, g.compile_id);
    }
    return p;
  };
  Places pa = collect(a), pb = collect(b);
  const std::map<RowKey, int64_t> rows = rows_by_compile(c);
  // Points the next difference at the row of `side`'s compile that broke, when it has one.
  auto anchor = [&](RunSide side, int64_t rank, const std::string& compile_id) {
    auto it = rows.find({side, rank, compile_id});
    if (it == rows.end()) {
      diffs.anchor(-1, -1);
      return;
    }
    diffs.anchor(c.compiles[static_cast<size_t>(it->second)].frame, it->second);
  };
  auto where = [](const BreakPlace& place, int64_t line) {
    return line >= 0 ? place.first + ":" + std::to_string(line) : place.first;
  };
  auto lines_of = [](const std::map<int64_t, std::string>& m) {
    std::vector<int64_t> out;
    for (const auto& [line, compile] : m) out.push_back(line);
    return out;
  };
  for (int64_t rank : shared_ranks) {
    std::set<BreakPlace> keys;
    for (const auto& [k, lines] : pa[rank]) keys.insert(k);
    for (const auto& [k, lines] : pb[rank]) keys.insert(k);
    for (const BreakPlace& k : keys) {
      const auto& ma = pa[rank][k];
      const auto& mb = pb[rank][k];
      const std::vector<int64_t> la = lines_of(ma), lb = lines_of(mb);
      std::vector<int64_t> only_a, only_b;
      std::set_difference(la.begin(), la.end(), lb.begin(), lb.end(), std::back_inserter(only_a));
      std::set_difference(lb.begin(), lb.end(), la.begin(), la.end(), std::back_inserter(only_b));
      const size_t moved = std::min(only_a.size(), only_b.size());
      for (size_t i = 0; i < moved; ++i) {
        anchor(RunSide::b, rank, mb.at(only_b[i]));
        diffs.add(DifferenceKind::graph_break_moved, k.first + ": " + k.second,
                  "line " + std::to_string(only_a[i]), "line " + std::to_string(only_b[i]), rank);
      }
      for (size_t i = moved; i < only_a.size(); ++i) {
        anchor(RunSide::a, rank, ma.at(only_a[i]));
        diffs.add(DifferenceKind::graph_break_removed, where(k, only_a[i]), k.second, std::nullopt,
                  rank);
      }
      for (size_t i = moved; i < only_b.size(); ++i) {
        anchor(RunSide::b, rank, mb.at(only_b[i]));
        diffs.add(DifferenceKind::graph_break_added, where(k, only_b[i]), std::nullopt, k.second,
                  rank);
      }
    }
  }
  diffs.anchor(-1, -1);
}

void compare_collectives(const RunFacts& a, const RunFacts& b,
                         const std::set<int64_t>& shared_ranks, DifferenceList& diffs) {
  // A desync, hang or straggler is the same one in both runs when it has the same kind, group,
  // sequence position and ranks; its message carries timings that differ run to run.
  using Key = std::tuple<std::string, std::string, int64_t, std::vector<int64_t>>;
  auto collect = [](const RunFacts& run) {
    std::map<Key, const FindingFact*> m;
    for (const FindingFact& f : run.findings)
      if (is_collective_finding(f.kind)) m.emplace(Key{f.kind, f.pg, f.seq, f.ranks}, &f);
    return m;
  };
  auto fa = collect(a), fb = collect(b);
  auto subject = [](const Key& k) {
    std::string s = std::get<0>(k);
    if (!std::get<1>(k).empty()) s += " in group " + std::get<1>(k);
    if (std::get<2>(k) >= 0) s += " at collective #" + std::to_string(std::get<2>(k));
    return s;
  };
  for (const auto& [k, f] : fb)
    if (!fa.count(k))
      diffs.add_ranks(DifferenceKind::collective_finding_added, subject(k), std::nullopt,
                      comparable_text(f->message), f->ranks);
  for (const auto& [k, f] : fa)
    if (!fb.count(k))
      diffs.add_ranks(DifferenceKind::collective_finding_removed, subject(k),
                      comparable_text(f->message), std::nullopt, f->ranks);
  // Each rank's stream per group, compared position by position up to the first difference.
  using Streams = std::map<std::pair<int64_t, std::string>, std::vector<const CollectiveFact*>>;
  auto streams = [&](const RunFacts& run) {
    Streams s;
    for (const CollectiveFact& c : run.collectives)
      if (shared_ranks.count(c.rank)) s[{c.rank, c.pg}].push_back(&c);
    return s;
  };
  Streams sa = streams(a), sb = streams(b);
  std::set<std::pair<int64_t, std::string>> keys;
  for (const auto& [k, v] : sa) keys.insert(k);
  for (const auto& [k, v] : sb) keys.insert(k);
  auto text = [](const CollectiveFact* c) -> std::optional<std::string> {
    if (!c) return std::nullopt;
    return c->op + " " + c->input_sizes + " " + c->dtype;
  };
  for (const auto& k : keys) {
    const auto& xa = sa[k];
    const auto& xb = sb[k];
    const size_t n = std::max(xa.size(), xb.size());
    for (size_t i = 0; i < n; ++i) {
      auto ta = text(i < xa.size() ? xa[i] : nullptr), tb = text(i < xb.size() ? xb[i] : nullptr);
      if (ta == tb) continue;
      const CollectiveFact* at = i < xa.size() ? xa[i] : xb[i];
      const int64_t position = at->seq >= 0 ? at->seq : static_cast<int64_t>(i);
      diffs.add(DifferenceKind::collective_divergence,
                "group " + k.second + " sequence " + std::to_string(position), ta, tb, k.first);
      break;
    }
  }
}

void remap_rank(RunFacts& run, int64_t from, int64_t to) {
  auto move = [&](int64_t& rank) {
    if (rank == from) rank = to;
  };
  for (CompileFact& c : run.compiles) move(c.rank);
  for (GraphBreakFact& g : run.breaks) move(g.rank);
  for (CollectiveFact& c : run.collectives) move(c.rank);
  for (FindingFact& f : run.findings)
    for (int64_t& r : f.ranks) move(r);
  for (RankWait& w : run.waits) move(w.rank);
}

std::vector<int64_t> phase_rows(const PhaseSums& sums, const std::string& phase, double delta_us) {
  constexpr size_t kMaxRows = 5;
  std::vector<std::pair<double, int64_t>> moved;  // (its change, row)
  auto it = sums.by_row.find(phase);
  if (it == sums.by_row.end()) return {};
  for (const auto& [row, a_us, b_us] : it->second) {
    const double own = b_us - a_us;
    if ((own > 0) == (delta_us > 0) && std::fabs(own) >= kMinDeltaUs &&
        std::fabs(own) >= kMinRatio * std::fabs(delta_us))
      moved.emplace_back(std::fabs(own), row);
  }
  std::sort(moved.begin(), moved.end(), std::greater<>());
  std::vector<int64_t> rows;
  for (size_t i = 0; i < moved.size() && i < kMaxRows; ++i) rows.push_back(moved[i].second);
  return rows;
}

std::string ranks_text(const std::vector<int64_t>& ranks) {
  if (ranks.empty()) return "1 process (no ranks)";
  return rank_words(ranks, 0);  // "ranks 0-2 (3 ranks)"
}

void add_run_notes(const char* side, const RunSummary& s, Comparison& out) {
  const std::string run = side;
  if (s.health.incomplete_files > 0)
    out.notes.push_back(run + " has " + std::to_string(s.health.incomplete_files) +
                        " log file(s) whose ingest did not finish: the run may be cut short");
  if (s.compiles.unfinished > 0)
    out.notes.push_back(run + " has " + std::to_string(s.compiles.unfinished) +
                        " compile(s) without an end record (no compilation_metrics): their "
                        "outcome and time are unknown");
  if (!s.analysed)
    out.notes.push_back(run + " is not analysed (tlscope analyze): its compiles are unknown");
}

}  // namespace

const DifferenceKindInfo& kind_info(DifferenceKind kind) {
  return kDifferenceKinds[static_cast<size_t>(kind)];
}

const CompilePair* find_compile_pair(const Comparison& c, RunSide side, int64_t rank,
                                     std::string_view compile_id) {
  for (const CompilePair& p : c.compiles) {
    const auto& id = side == RunSide::a ? p.compile_a : p.compile_b;
    const int64_t r = side == RunSide::a ? p.rank_a : p.rank_b;
    if (id && *id == compile_id && r == rank) return &p;
  }
  return nullptr;
}

const char* frame_status_name(FrameStatus s) {
  switch (s) {
    case FrameStatus::matched:
      return "matched";
    case FrameStatus::only_a:
      return "only_a";
    case FrameStatus::only_b:
      return "only_b";
  }
  return "";
}

Result<Comparison> compare_runs(const Database& db_a, const Database& db_b) {
  Result<Comparison> out;
  Comparison& c = out.value;
  RunRead ra, rb;
  read_runs(db_a, db_b, ra, rb);
  // The first failure is kept, in the order the reads used to run one after the other.
  for (auto [read, into] : {std::pair{&ra, &c.a}, std::pair{&rb, &c.b}}) {
    if (!read->summary.ok()) out.fail(read->summary.error);
    *into = std::move(read->summary.value);
  }
  if (!ra.facts_status.ok()) out.fail(ra.facts_status.error);
  if (!rb.facts_status.ok()) out.fail(rb.facts_status.error);
  const RunFacts a = std::move(ra.facts);
  RunFacts b = std::move(rb.facts);
  DifferenceList diffs;
  // One rank's log against another rank's (rank 0 of a job against rank 1): the two processes are
  // what the user asked to compare, so B's rank stands in for A's.
  const bool one_rank_each =
      c.a.ranks.size() == 1 && c.b.ranks.size() == 1 && c.a.ranks != c.b.ranks;
  if (one_rank_each) {
    remap_rank(b, c.b.ranks.front(), c.a.ranks.front());
    c.notes.push_back("each run is one rank: B's rank " + std::to_string(c.b.ranks.front()) +
                      " is compared with A's rank " + std::to_string(c.a.ranks.front()) +
                      "; differences name A's rank");
  }

  // Environment.
  if (c.a.torch_version && c.b.torch_version && *c.a.torch_version != *c.b.torch_version) {
    diffs.add(DifferenceKind::torch_version, "torch version", c.a.torch_version, c.b.torch_version,
              -1);
    c.notes.push_back("the runs used different PyTorch versions (" + *c.a.torch_version + ", " +
                      *c.b.torch_version + "): a difference may come from the upgrade");
  } else if (!c.a.torch_version || !c.b.torch_version) {
    c.notes.push_back(std::string(!c.a.torch_version && !c.b.torch_version ? "neither log states"
                                  : !c.a.torch_version ? "A's log does not state"
                                                       : "B's log does not state") +
                      " its PyTorch version: an upgrade between the runs cannot be ruled out");
  }
  compare_config(a, b, diffs, c.notes);
  if (c.a.ranks != c.b.ranks && !one_rank_each) {
    diffs.add(DifferenceKind::world_size, "ranks", ranks_text(c.a.ranks), ranks_text(c.b.ranks),
              -1);
    c.notes.push_back("the runs have different ranks (" + ranks_text(c.a.ranks) + " against " +
                      ranks_text(c.b.ranks) + "): only ranks present in both are compared");
  }
  std::set<int64_t> shared_ranks;
  {
    std::set<int64_t> ra, rb;
    for (const CompileFact& x : a.compiles) ra.insert(x.rank);
    for (const CompileFact& x : b.compiles) rb.insert(x.rank);
    for (int64_t r : c.a.ranks) ra.insert(r);
    for (int64_t r : c.b.ranks) rb.insert(r);
    if (one_rank_each) rb = ra;
    ra.insert(-1);
    rb.insert(-1);
    std::set_intersection(ra.begin(), ra.end(), rb.begin(), rb.end(),
                          std::inserter(shared_ranks, shared_ranks.begin()));
  }

  // Frames and their compiles.
  Sides sides{a,
              b,
              by_compile(a.caches),
              by_compile(b.caches),
              by_compile(a.phases),
              by_compile(b.phases),
              by_compile(a.inputs),
              by_compile(b.inputs),
              {db_a, db_b},
              {}};
  const std::vector<RunFrame> fa = frames_of(a), fb = frames_of(b);
  PhaseSums sums;
  std::set<std::string> input_notes;
  for (auto [i, j] : match_frames(fa, fb)) {
    const RunFrame* x = i >= 0 ? &fa[static_cast<size_t>(i)] : nullptr;
    const RunFrame* y = j >= 0 ? &fb[static_cast<size_t>(j)] : nullptr;
    FrameMatch& m = c.frames.emplace_back();
    const FrameKey& key = x ? x->key : y->key;
    m.file = std::get<0>(key);
    m.function = std::get<1>(key);
    m.status = x && y ? FrameStatus::matched : x ? FrameStatus::only_a : FrameStatus::only_b;
    if (x) {
      m.line_a = std::get<2>(x->key);
      m.compiles_a = x->counts.compiles_a;
      m.completed_a = x->counts.completed_a;
      m.failed_a = x->counts.failed_a;
      m.recompiles_a = x->counts.recompiles_a;
    }
    if (y) {
      m.line_b = std::get<2>(y->key);
      m.compiles_b = y->counts.compiles_a;
      m.completed_b = y->counts.completed_a;
      m.failed_b = y->counts.failed_a;
      m.recompiles_b = y->counts.recompiles_a;
    }
    FrameKey named = key;
    std::get<2>(named) = -1;  // a frame's subject leaves out the line, which may have moved
    const std::string subject = frame_subject(named);
    const auto frame_index = static_cast<int64_t>(c.frames.size() - 1);
    if (!x || !y) {
      c.same_work = false;
      const RunFrame* only = x ? x : y;
      // Its compiles are listed on their side alone.
      for (const auto& [rank, list] : only->by_rank)
        for (size_t k = 0; k < list.size(); ++k)
          add_compile_pair(c, diffs, frame_index, k, compile_subject(subject, k),
                           x ? list[k] : nullptr, y ? list[k] : nullptr);
      diffs.anchor(frame_index, -1);
      std::set<int64_t> ranks;
      for (const auto& [rank, list] : only->by_rank) ranks.insert(rank);
      std::string value = std::to_string(only->counts.compiles_a) + " compile(s)";
      if (only->counts.failed_a > 0)
        value += ", " + std::to_string(only->counts.failed_a) + " failed";
      diffs.add_ranks(x ? DifferenceKind::frame_removed : DifferenceKind::frame_added,
                      frame_subject(only->key), x ? std::optional(value) : std::nullopt,
                      y ? std::optional(value) : std::nullopt,
                      std::vector<int64_t>(ranks.lower_bound(0), ranks.end()));
      continue;
    }
    diffs.anchor(frame_index, -1);
    if (m.line_a != m.line_b)
      diffs.add(DifferenceKind::frame_moved, subject, "line " + std::to_string(m.line_a),
                "line " + std::to_string(m.line_b), -1);
    static const std::vector<const CompileFact*> kNone;
    for (int64_t rank : shared_ranks) {
      auto ia = x->by_rank.find(rank), ib = y->by_rank.find(rank);
      const auto& ca = ia == x->by_rank.end() ? kNone : ia->second;
      const auto& cb = ib == y->by_rank.end() ? kNone : ib->second;
      if (ca.empty() && cb.empty()) continue;
      compare_compiles(subject, frame_index, ca, cb, rank, sides, diffs, sums, c, input_notes);
    }
  }
  diffs.anchor(-1, -1);  // what follows concerns no single frame, but a graph break's compile
  // The rows still name B's compiles by A's rank here, as B's graph breaks do.
  compare_graph_breaks(a, b, shared_ranks, c, diffs);
  if (one_rank_each)
    for (CompilePair& p : c.compiles)
      if (p.compile_b) p.rank_b = c.b.ranks.front();  // B's facts were renamed to A's rank
  compare_collectives(a, b, shared_ranks, diffs);
  compare_waits(a, b, shared_ranks, diffs);

  // Compile time per phase over the compiles both completed, largest change first; a change is
  // a difference when it is large in both absolute and relative terms, and larger than the runs'
  // own spread of the same compiles across ranks (the straggler pair's 4 ranks, each compiling
  // 3-27 ms, took 33-55 ms each under load: 0.036 s -> 0.169 s summed; noise, not a difference).
  for (const std::string& phase : sums.order) {
    auto [ta, tb] = sums.by_phase[phase];
    c.phases.push_back({phase, ta, tb});
  }
  std::stable_sort(c.phases.begin(), c.phases.end(), [](const PhaseDelta& x, const PhaseDelta& y) {
    return std::fabs(x.b_us - x.a_us) > std::fabs(y.b_us - y.a_us);
  });
  constexpr size_t kMaxPhaseDifferences = 3;
  size_t phase_differences = 0;
  for (const PhaseDelta& p : c.phases) {
    const double delta = p.b_us - p.a_us;
    // Ranks of an SPMD job compile the same frames side by side, so the floor holds per rank: n
    // ranks each slower by a little under load are not n times a little slower.
    const double per_rank = static_cast<double>(std::max<size_t>(1, sums.ranks.size()));
    if (!time_changed(p.a_us / per_rank, p.b_us / per_rank, kMinPhaseDeltaUs) ||
        std::fabs(delta) <= phase_noise_us(sums, p.phase))
      continue;
    if (phase_differences++ == kMaxPhaseDifferences) break;
    diffs.add(DifferenceKind::compile_time, p.phase, seconds_text(p.a_us), seconds_text(p.b_us), -1,
              delta);
    diffs.attach_rows(phase_rows(sums, p.phase, delta));
  }
  if (!c.same_work && c.timed_compiles > 0)
    c.notes.push_back(
        "the runs did not compile the same work: compile times are compared over "
        "the " +
        std::to_string(c.timed_compiles) +
        " compile(s) both completed, and say nothing of the whole run's speed");
  add_run_notes("A", c.a, c);
  add_run_notes("B", c.b, c);
  for (const Result<CompileSpans>* spans : {&ra.spans, &rb.spans})
    if (!spans->ok()) out.fail(spans->error);
  time_compile_pairs(ra.spans.value, rb.spans.value, c);
  c.differences = diffs.take();
  return out;
}

}  // namespace tlscope::views
