// Reads chromium_events and collectives into the Chrome-trace view: processes per rank, threads
// per log file and per process-group lane, events sorted per thread in nesting order.
#include "tlscope/views/trace_events.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace tlscope::views {

namespace {

class TraceReader {
 public:
  TraceReader(const Database& db, Result<TraceEvents>& out) : db_(db), out_(out) {}

  void read() {
    pick_unranked_pid();
    chromium_events();
    collectives();
    std::vector<TraceEvent>& events = out_->events;
    std::sort(events.begin(), events.end(), [](const TraceEvent& a, const TraceEvent& b) {
      // Outer slices first when two start together, so each thread reads in nesting order.
      return std::tie(a.pid, a.tid, a.ts_us) < std::tie(b.pid, b.tid, b.ts_us) ||
             (std::tie(a.pid, a.tid, a.ts_us) == std::tie(b.pid, b.tid, b.ts_us) &&
              a.dur_us > b.dur_us);
    });
    std::set<int64_t> pids;
    std::set<std::pair<int64_t, int64_t>> threads;
    for (const TraceEvent& e : events) {
      pids.insert(e.pid);
      threads.insert({e.pid, e.tid});
    }
    for (int64_t pid : pids)
      out_->processes.push_back({pid, pid == unranked_pid_ && !ranks_.count(pid)
                                          ? "no rank"
                                          : "rank " + std::to_string(pid)});
    for (const auto& [pid, tid] : threads) {
      auto it = thread_names_.find({pid, tid});
      out_->threads.push_back(
          {pid, tid, it != thread_names_.end() ? it->second : "tid " + std::to_string(tid)});
    }
  }

 private:
  void check(const Statement& s) {
    if (!s.error().empty()) out_.fail(s.error());
  }

  // Events without a rank get a pid no rank uses: 0 for a single-process log.
  void pick_unranked_pid() {
    std::string sql = "SELECT DISTINCT rank FROM files WHERE rank IS NOT NULL";
    if (db_.has_table("chromium_events"))
      sql += " UNION SELECT DISTINCT rank FROM chromium_events WHERE rank IS NOT NULL";
    if (db_.has_table("collectives"))
      sql += " UNION SELECT DISTINCT rank FROM collectives WHERE rank IS NOT NULL";
    Statement s = db_.prepare(sql);
    while (s.step()) ranks_.insert(s.int64(0));
    check(s);
    unranked_pid_ = ranks_.empty() ? 0 : *ranks_.rbegin() + 1;
  }

  int64_t pid_of(const Statement& s, int col) const {
    return s.is_null(col) ? unranked_pid_ : s.int64(col);
  }

  void chromium_events() {
    if (!db_.has_table("chromium_events")) return;
    // A rank with several log files (several runs) gets its own threads per file.
    std::map<std::pair<int64_t, int64_t>, int64_t> file_slot;  // (pid, file) -> slot
    std::map<int64_t, int64_t> slots;
    // Log order: a matched B precedes its E, so the E rows that close a B are recognised by a
    // count of open matched Bs per (file, payload pid, tid, name).
    // The texts are clipped before the sort copies them (tlscope_clip, cell_text.hpp).
    Statement s = db_.prepare(
        "SELECT coalesce(c.rank, f.rank), c.file_id, tlscope_clip(c.name), "
        "tlscope_clip(coalesce(c.cat, '')), c.ph, c.ts, c.dur, coalesce(c.tid, 0), "
        "coalesce(c.pid, 0), tlscope_clip(coalesce(c.args, '{}')) "
        "FROM chromium_events c LEFT JOIN files f ON f.id = c.file_id ORDER BY c.file_id, c.id");
    std::map<std::tuple<int64_t, int64_t, int64_t, std::string>, int64_t> open;
    while (s.step()) {
      if (s.is_null(5) || !std::isfinite(s.real(5))) {
        ++out_->skipped;
        continue;
      }
      TraceEvent e;
      e.pid = pid_of(s, 0);
      int64_t file = s.int64(1);
      auto [slot, fresh] = file_slot.try_emplace({e.pid, file}, slots[e.pid]);
      if (fresh) ++slots[e.pid];
      e.tid = s.int64(7) + 100 * slot->second;
      thread_names_.emplace(
          std::pair{e.pid, e.tid},
          "compile phases" +
              (slot->second ? " (log file " + std::to_string(file) + ")" : std::string()));
      e.name = s.text(2);
      e.cat = s.text(3);
      e.ts_us = s.real(5);
      e.logged_args = s.text(9);
      e.has_logged_args = true;
      std::string ph = s.text(4);
      auto key = std::make_tuple(file, s.int64(8), s.int64(7), e.name);
      if (ph == "B" && !s.is_null(6)) {
        ++open[key];
        e.dur_us = std::max(0.0, s.real(6));
      } else if (ph == "E" && open[key] > 0) {
        --open[key];  // folded into its B's duration
        continue;
      } else if (ph == "X") {
        e.dur_us = s.is_null(6) ? 0.0 : std::max(0.0, s.real(6));
      } else if (ph != "i" && ph != "I") {
        // A B that never ended, an E that never began, or a phase the trace does not
        // reproduce: an instant event that says so (a lone B or E would unbalance the thread).
        e.extra_args.emplace_back("tlscope_original_ph", ph);
        if (ph == "B") e.name += " (begin without end)";
        if (ph == "E") e.name += " (end without begin)";
      }
      out_->events.push_back(std::move(e));
    }
    check(s);
  }

  void collectives() {
    if (!db_.has_table("collectives")) return;
    std::map<std::string, int64_t> group_index;
    Statement g = db_.prepare("SELECT DISTINCT coalesce(pg_name, '') FROM collectives ORDER BY 1");
    while (g.step()) group_index.emplace(g.text(0), static_cast<int64_t>(group_index.size()));
    check(g);
    Statement c = db_.prepare(
        "SELECT rank, coalesce(op, ''), coalesce(seq, -1), coalesce(pg_name, ''), "
        "coalesce(pg_desc, ''), coalesce(input_sizes, ''), coalesce(state, ''), "
        "coalesce(created_us, started_us), coalesce(completed_us, started_us, created_us) "
        "FROM collectives ORDER BY rank, pg_name, created_us, id");
    // Per (pid, group): the end time of each lane's last collective.
    std::map<std::pair<int64_t, std::string>, std::vector<double>> lanes;
    while (c.step()) {
      if (c.is_null(7) || !std::isfinite(c.real(7))) {
        ++out_->skipped;
        continue;
      }
      TraceEvent e;
      e.pid = pid_of(c, 0);
      e.ts_us = c.real(7);
      e.dur_us = std::max(0.0, c.real(8) - e.ts_us);
      std::vector<double>& ends = lanes[{e.pid, c.text(3)}];
      size_t lane = 0;
      while (lane < ends.size() && ends[lane] > e.ts_us) ++lane;
      if (lane == ends.size()) {
        if (ends.size() < static_cast<size_t>(kLanesPerGroup))
          ends.push_back(0);
        else
          lane = ends.size() - 1;
      }
      ends[lane] = e.ts_us + e.dur_us;
      e.tid = kCollectiveTid + group_index[c.text(3)] * kLanesPerGroup + static_cast<int64_t>(lane);
      std::string track = "collectives pg " + c.text(3);
      if (!c.text_view(4).empty()) track += " (" + c.text(4) + ")";
      if (lane > 0) track += " overlap " + std::to_string(lane);
      thread_names_.emplace(std::pair{e.pid, e.tid}, track);
      e.name = c.text(1) + " #" + std::to_string(c.int64(2));
      e.cat = "collective";
      e.extra_args = {{"pg", c.text(3)}, {"sizes", c.text(5)}, {"state", c.text(6)}};
      out_->events.push_back(std::move(e));
    }
    check(c);
  }

  const Database& db_;
  Result<TraceEvents>& out_;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names_;
  std::set<int64_t> ranks_;
  int64_t unranked_pid_ = 0;
};

}  // namespace

Result<TraceEvents> load_trace_events(const Database& db) {
  Result<TraceEvents> out;
  TraceReader(db, out).read();
  return out;
}

}  // namespace tlscope::views
