// The differences of a comparison as compare.cpp and its helpers find them, per rank: the same
// difference on several ranks becomes one with its ranks (compare.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tlscope/views/compare.hpp"

namespace tlscope::views {

class DifferenceList {
 public:
  void add(DifferenceKind kind, std::string subject, std::optional<std::string> a,
           std::optional<std::string> b, int64_t rank, double weight = 0) {
    auto key = std::make_tuple(static_cast<int>(kind), subject, a, b);
    auto [it, fresh] = index_.try_emplace(key, list_.size());
    if (fresh) {
      Difference& d = list_.emplace_back();
      d.kind = kind;
      d.subject = std::move(subject);
      d.a = std::move(a);
      d.b = std::move(b);
      d.weight = weight;
      d.frame = frame_;
      d.compile = compile_;
    }
    last_ = it->second;
    Difference& d = list_[it->second];
    if (rank >= 0 && (d.ranks.empty() || d.ranks.back() != rank)) d.ranks.push_back(rank);
    // The same difference on another rank's row is about that row too (Difference::compile_rows;
    // rows come mostly in order, and take() drops repeats: no search over 1,024 ranks' rows).
    if (compile_ >= 0 && (d.compile_rows.empty() || d.compile_rows.back() != compile_))
      d.compile_rows.push_back(compile_);
  }
  void add_ranks(DifferenceKind kind, std::string subject, std::optional<std::string> a,
                 std::optional<std::string> b, const std::vector<int64_t>& ranks) {
    if (ranks.empty()) add(kind, subject, a, b, -1);
    for (int64_t r : ranks) add(kind, subject, a, b, r);
  }
  // Puts the difference added last on these rows too (a run-wide one, e.g. a phase's compile
  // time, on the compiles it comes from); its `frame` and `compile` anchor stay as they were.
  void attach_rows(const std::vector<int64_t>& rows) {
    if (last_ >= list_.size()) return;
    Difference& d = list_[last_];
    d.compile_rows.insert(d.compile_rows.end(), rows.begin(), rows.end());  // take() sorts
  }
  // What the differences added from now on are about (Difference::frame and ::compile).
  void anchor(int64_t frame, int64_t compile) {
    frame_ = frame;
    compile_ = compile;
  }
  std::vector<Difference> take() {
    for (Difference& d : list_) {
      std::sort(d.ranks.begin(), d.ranks.end());
      d.ranks.erase(std::unique(d.ranks.begin(), d.ranks.end()), d.ranks.end());
      std::sort(d.compile_rows.begin(), d.compile_rows.end());
      d.compile_rows.erase(std::unique(d.compile_rows.begin(), d.compile_rows.end()),
                           d.compile_rows.end());
    }
    std::stable_sort(list_.begin(), list_.end(), [](const Difference& x, const Difference& y) {
      if (x.kind != y.kind) return x.kind < y.kind;
      return std::fabs(x.weight) > std::fabs(y.weight);
    });
    return std::move(list_);
  }

 private:
  std::vector<Difference> list_;
  int64_t frame_ = -1, compile_ = -1;
  size_t last_ = SIZE_MAX;  // the difference add() made or merged last
  std::map<std::tuple<int, std::string, std::optional<std::string>, std::optional<std::string>>,
           size_t>
      index_;
};

}  // namespace tlscope::views
