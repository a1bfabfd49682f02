// The sentences of a comparison (compare.hpp): one function per difference kind, declared from
// the one list TLSCOPE_DIFFERENCE_KINDS so a new kind without words does not build.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/views/compare.hpp"
#include "tlscope/views/rank_words.hpp"

namespace tlscope::views {

namespace {

std::string on_ranks(const Difference& d) {
  if (d.ranks.empty()) return "";
  return " on " + rank_words(d.ranks, 0);
}
// "; 8.20 s compiling" for a compile that only one run has and whose time the log measured.
std::string cost(const Difference& d) {
  if (d.weight <= 0) return "";
  char text[48];
  std::snprintf(text, sizeof text, "; %.2f s compiling", d.weight / 1e6);
  return text;
}
const std::string& A(const Difference& d) {
  static const std::string none = "(none)";
  return d.a ? *d.a : none;
}
const std::string& B(const Difference& d) {
  static const std::string none = "(none)";
  return d.b ? *d.b : none;
}

#define TLSCOPE_DIFFERENCE_WORDS(id, section, tag) std::string words_##id(const Difference& d);
TLSCOPE_DIFFERENCE_KINDS(TLSCOPE_DIFFERENCE_WORDS)
#undef TLSCOPE_DIFFERENCE_WORDS

std::string words_failure_added(const Difference& d) {
  return "B fails " + d.subject + on_ranks(d) + " with " + B(d) +
         (d.a ? " (A: " + A(d) + ")" : " (A did not compile it)");
}
std::string words_failure_removed(const Difference& d) {
  return "B no longer fails " + d.subject + on_ranks(d) + " (A failed with " + A(d) +
         "; B: " + B(d) + ")";
}
std::string words_failure_changed(const Difference& d) {
  return d.subject + on_ranks(d) + " fails differently: " + A(d) + " in A, " + B(d) + " in B";
}
std::string words_recompile_added(const Difference& d) {
  return "B recompiles " + d.subject + on_ranks(d) + ": guard `" + B(d) + "` failed" + cost(d);
}
std::string words_recompile_removed(const Difference& d) {
  return "B no longer recompiles " + d.subject + on_ranks(d) + " (A: guard `" + A(d) + "` failed)";
}
std::string words_guard_changed(const Difference& d) {
  return d.subject + on_ranks(d) + " recompiles for another guard: `" + A(d) + "` in A, `" + B(d) +
         "` in B";
}
std::string words_compile_added(const Difference& d) {
  return "B compiles " + d.subject + on_ranks(d) + " that A did not (" + B(d) + cost(d) + ")";
}
std::string words_compile_removed(const Difference& d) {
  return "B does not compile " + d.subject + on_ranks(d) + " (A: " + A(d) + ")";
}
std::string words_restarts_changed(const Difference& d) {
  return d.subject + on_ranks(d) + " restarts " + B(d) + " time(s) in B, " + A(d) + " in A";
}
std::string words_collective_finding_added(const Difference& d) {
  return "B has a " + d.subject + on_ranks(d) + " that A does not: " + B(d);
}
std::string words_collective_finding_removed(const Difference& d) {
  return "A's " + d.subject + on_ranks(d) + " is gone in B (A: " + A(d) + ")";
}
std::string words_collective_divergence(const Difference& d) {
  return "the collectives first differ at " + d.subject + on_ranks(d) + ": A issued " + A(d) +
         ", B " + B(d);
}
std::string words_collective_wait(const Difference& d) {
  return d.subject + on_ranks(d) + ": " + A(d) + " in A, " + B(d) +
         " in B (time each collective waited for the last rank to arrive, summed)";
}
std::string words_graph_break_added(const Difference& d) {
  return "B breaks the graph at " + d.subject + on_ranks(d) + ": " + B(d);
}
std::string words_graph_break_removed(const Difference& d) {
  return "B no longer breaks the graph at " + d.subject + on_ranks(d) + " (A: " + A(d) + ")";
}
std::string words_graph_break_moved(const Difference& d) {
  return "graph break " + d.subject + on_ranks(d) + " moved from " + A(d) + " to " + B(d);
}
std::string words_cache_flip(const Difference& d) {
  return "cache of " + d.subject + on_ranks(d) + ": " + A(d) + " in A, " + B(d) + " in B";
}
std::string words_compile_time(const Difference& d) {
  return "compile phase " + d.subject + ": " + A(d) + " in A, " + B(d) +
         " in B (over the compiles both runs completed)";
}
// A graph's difference: the compile's subject, then the node ("f (file) compile #0: node `sum`").
std::string words_graph_node_added(const Difference& d) {
  return "B's graph of " + d.subject + on_ranks(d) + " has more such nodes: " + B(d) +
         " (A: " + A(d) + ")";
}
std::string words_graph_node_removed(const Difference& d) {
  return "B's graph of " + d.subject + on_ranks(d) + " has fewer such nodes: " + B(d) +
         " (A: " + A(d) + ")";
}
std::string words_graph_dtype_changed(const Difference& d) {
  return "graph of " + d.subject + on_ranks(d) + " has another dtype: " + A(d) + " in A, " + B(d) +
         " in B";
}
// Symbolic against static sizes is what a reader looks for: automatic dynamic shapes marked a
// dim dynamic in one run only, or a guard specialised it.
std::string words_graph_shape_changed(const Difference& d) {
  auto symbolic = [](const std::optional<std::string>& v) {
    return v && v->find_first_of("abcdefghijklmnopqrstuvwxyz", v->find('[')) != std::string::npos;
  };
  std::string why;
  if (symbolic(d.a) != symbolic(d.b))
    why = symbolic(d.b) ? " (dynamic in B, static in A)" : " (static in B, dynamic in A)";
  return "graph of " + d.subject + on_ranks(d) + " has other sizes: " + A(d) + " in A, " + B(d) +
         " in B" + why;
}
std::string words_guard_added(const Difference& d) {
  return "B guards " + d.subject + on_ranks(d) + " on `" + B(d) + "` (not in A's guards)";
}
std::string words_guard_removed(const Difference& d) {
  return "B no longer guards " + d.subject + on_ranks(d) + " on `" + A(d) + "`";
}
std::string words_kernel_added(const Difference& d) {
  return "B's code for " + d.subject + on_ranks(d) + " defines kernel " + B(d) +
         " that A's does not";
}
std::string words_kernel_removed(const Difference& d) {
  return "B's code for " + d.subject + on_ranks(d) + " no longer defines kernel " + A(d);
}
std::string words_output_code_size(const Difference& d) {
  return "generated code of " + d.subject + on_ranks(d) + ": " + A(d) + " in A, " + B(d) + " in B";
}
std::string words_frame_added(const Difference& d) {
  return "B compiles a frame A did not: " + d.subject + on_ranks(d) + ", " + B(d);
}
std::string words_frame_removed(const Difference& d) {
  return "B does not compile " + d.subject + on_ranks(d) + " (A: " + A(d) + ")";
}
std::string words_frame_moved(const Difference& d) {
  return d.subject + " moved from " + A(d) + " to " + B(d);
}
std::string words_torch_version(const Difference& d) {
  return "PyTorch " + A(d) + " in A, " + B(d) + " in B";
}
std::string words_config_changed(const Difference& d) {
  return "config " + d.subject + " is " + A(d) + " in A, " + B(d) + " in B";
}
std::string words_world_size(const Difference& d) {
  return "ranks: " + A(d) + " in A, " + B(d) + " in B";
}

}  // namespace

std::string difference_text(const Difference& d) {
  switch (d.kind) {
#define TLSCOPE_DIFFERENCE_CASE(id, section, tag) \
  case DifferenceKind::id:                        \
    return words_##id(d);
    TLSCOPE_DIFFERENCE_KINDS(TLSCOPE_DIFFERENCE_CASE)
#undef TLSCOPE_DIFFERENCE_CASE
  }
  return d.subject;
}

namespace {

// The frame part of a compile's subject ("f (file) compile #3" -> "f (file)"), "" otherwise.
std::string_view frame_of(const std::string& subject) {
  size_t at = subject.rfind(" compile #");
  return at == std::string::npos ? std::string_view() : std::string_view(subject).substr(0, at);
}

// One verdict line for several differences of one kind in one frame on the same ranks: "B
// recompiles f (file) 8 times on rank 3 (compiles #7-#14), e.g. ...; 3.93 s compiling in all";
// or of one kind and subject on many ranks (each rank's wait in collectives): "1011 ranks like
// this, the largest: ...".
std::string folded_line(const std::vector<const Difference*>& group) {
  const Difference& first = *group.front();
  if (group.size() == 1) return difference_text(first);
  if (frame_of(first.subject).empty()) {
    std::vector<int64_t> ranks;
    for (const Difference* d : group) ranks.insert(ranks.end(), d->ranks.begin(), d->ranks.end());
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return std::to_string(group.size()) + " like this on " + rank_words(ranks, 0) +
           ", the largest: " + difference_text(first);
  }
  double total = 0;
  for (const Difference* d : group) total += d->weight;
  Difference sample = first;
  sample.weight = 0;
  char cost[64] = "";
  if (total > 0) std::snprintf(cost, sizeof cost, "; %.2f s compiling in all", total / 1e6);
  return std::to_string(group.size()) + " like this in " + std::string(frame_of(first.subject)) +
         ": " + difference_text(sample) + cost;
}

}  // namespace

std::vector<std::string> verdict(const Comparison& c, size_t max_lines) {
  std::vector<std::string> lines;
  if (c.differences.empty()) {
    lines.push_back("No differences: the runs compiled the same frames the same way" +
                    std::string(c.notes.empty() ? "." : " (see the notes)."));
    return lines;
  }
  // Differences of one kind in one frame on the same ranks are one line: a recompile storm is
  // one fact, not five lines of the verdict.
  std::vector<std::vector<const Difference*>> groups;
  for (const Difference& d : c.differences) {
    const std::string_view frame = frame_of(d.subject);
    bool joined = false;
    for (auto& g : groups) {
      const Difference& head = *g.front();
      // One frame's compiles on the same ranks; or one subject that is no compile on other
      // ranks (per-rank facts such as the wait in collectives).
      const bool same_frame =
          !frame.empty() && head.ranks == d.ranks && frame_of(head.subject) == frame;
      const bool same_subject = frame.empty() && !d.ranks.empty() && head.subject == d.subject;
      if (head.kind == d.kind && (same_frame || same_subject)) {
        g.push_back(&d);
        joined = true;
        break;
      }
    }
    if (!joined) groups.push_back({&d});
  }
  size_t shown = 0;
  for (const auto& g : groups) {
    if (lines.size() == max_lines) break;
    lines.push_back(folded_line(g));
    shown += g.size();
  }
  if (c.differences.size() > shown)
    lines.push_back("and " + std::to_string(c.differences.size() - shown) +
                    " more difference(s) below");
  return lines;
}

}  // namespace tlscope::views
