// Chrome-trace export: chromium_event phases and collectives as complete (X) and instant (i)
// events, sorted per process and thread, with process_name/thread_name metadata. Only X, i and M
// are written, so no B/E pair can be left unbalanced and every X on a thread nests: compile
// phases nest by construction (B/E pairs, innermost first) and overlapping collectives of a
// group get lanes (tids) of their own.
#include "tlscope/exporters/chrome_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

using views::Database;
using views::Statement;

namespace {

constexpr int64_t kCollectiveTid = 1000;
constexpr int64_t kLanesPerGroup = 100;

struct TraceEvent {
  int64_t pid = 0, tid = 0;
  double ts = 0, dur = -1;      // dur < 0: an instant event
  std::string name, cat, args;  // args: a JSON object
};

void number(std::string& out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  out += buf;
}

void append_event(std::string& buf, const TraceEvent& e) {
  buf += "{\"name\":";
  append_json_string(buf, e.name);
  buf += ",\"cat\":";
  append_json_string(buf, e.cat);
  buf += e.dur >= 0 ? ",\"ph\":\"X\",\"ts\":" : ",\"ph\":\"i\",\"s\":\"t\",\"ts\":";
  number(buf, e.ts);
  if (e.dur >= 0) {
    buf += ",\"dur\":";
    number(buf, e.dur);
  }
  buf += ",\"pid\":" + std::to_string(e.pid) + ",\"tid\":" + std::to_string(e.tid) +
         ",\"args\":" + e.args + "}";
}

void append_metadata(std::string& buf, const char* what, int64_t pid, int64_t tid,
                     const std::string& name) {
  buf += "{\"ph\":\"M\",\"name\":\"";
  buf += what;
  buf += "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
         ",\"args\":{\"name\":";
  append_json_string(buf, name);
  buf += "}}";
}

// Args as stored by ingest are JSON text; anything that is not an object is wrapped.
std::string args_object(std::string_view args, std::string_view extra_key = {},
                        std::string_view extra_value = {}) {
  std::string out;
  bool object = args.size() >= 2 && args.front() == '{' && args.back() == '}';
  if (object) {
    out = std::string(args);
  } else {
    out = "{\"raw\":";
    append_json_string(out, args);
    out += "}";
  }
  if (!extra_key.empty()) {
    std::string field = "\"" + std::string(extra_key) + "\":";
    append_json_string(field, extra_value);
    bool empty = out.find_first_not_of(" \t\n", 1) == out.size() - 1;
    out.insert(out.size() - 1, (empty ? "" : ",") + field);
  }
  return out;
}

class TraceBuilder {
 public:
  explicit TraceBuilder(const Database& db) : db_(db) {}

  void build() {
    pick_unranked_pid();
    chromium_events();
    collectives();
    std::sort(events_.begin(), events_.end(), [](const TraceEvent& a, const TraceEvent& b) {
      // Outer slices first when two start together, so each thread reads in nesting order.
      return std::tie(a.pid, a.tid, a.ts) < std::tie(b.pid, b.tid, b.ts) ||
             (std::tie(a.pid, a.tid, a.ts) == std::tie(b.pid, b.tid, b.ts) && a.dur > b.dur);
    });
  }

  bool write(std::ofstream& out, uint64_t& count) const {
    std::string buf = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
    bool first = true;
    auto next = [&] {
      if (!first) buf += ",\n";
      first = false;
      ++count;
      if (buf.size() > (1 << 20)) {
        out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
        buf.clear();
      }
    };
    std::set<int64_t> pids;
    std::set<std::pair<int64_t, int64_t>> threads;
    for (const TraceEvent& e : events_) {
      pids.insert(e.pid);
      threads.insert({e.pid, e.tid});
    }
    for (int64_t pid : pids) {
      next();
      append_metadata(
          buf, "process_name", pid, 0,
          pid == unranked_pid_ && !has_rank(pid) ? "no rank" : "rank " + std::to_string(pid));
      next();
      buf += "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(pid) +
             ",\"tid\":0,\"args\":{\"sort_index\":" + std::to_string(pid) + "}}";
    }
    for (const auto& [pid, tid] : threads) {
      next();
      auto it = thread_names_.find({pid, tid});
      append_metadata(buf, "thread_name", pid, tid,
                      it != thread_names_.end() ? it->second : "tid " + std::to_string(tid));
    }
    for (const TraceEvent& e : events_) {
      next();
      append_event(buf, e);
    }
    buf += "\n]}\n";
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    return static_cast<bool>(out);
  }

  uint64_t skipped() const { return skipped_; }

 private:
  bool has_rank(int64_t r) const { return ranks_.count(r) > 0; }

  // Events without a rank get a pid no rank uses: 0 for a single-process log.
  void pick_unranked_pid() {
    std::string sql = "SELECT DISTINCT rank FROM files WHERE rank IS NOT NULL";
    if (db_.has_table("chromium_events"))
      sql += " UNION SELECT DISTINCT rank FROM chromium_events WHERE rank IS NOT NULL";
    if (db_.has_table("collectives"))
      sql += " UNION SELECT DISTINCT rank FROM collectives WHERE rank IS NOT NULL";
    Statement s = db_.prepare(sql);
    while (s.step()) ranks_.insert(s.int64(0));
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
    Statement s = db_.prepare(
        "SELECT coalesce(c.rank, f.rank), c.file_id, c.name, coalesce(c.cat, ''), c.ph, c.ts, "
        "c.dur, coalesce(c.tid, 0), coalesce(c.pid, 0), coalesce(c.args, '{}') "
        "FROM chromium_events c LEFT JOIN files f ON f.id = c.file_id ORDER BY c.file_id, c.id");
    std::map<std::tuple<int64_t, int64_t, int64_t, std::string>, int64_t> open;
    while (s.step()) {
      if (s.is_null(5) || !std::isfinite(s.real(5))) {
        ++skipped_;
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
      e.ts = s.real(5);
      std::string ph = s.text(4);
      auto key = std::make_tuple(file, s.int64(8), s.int64(7), e.name);
      if (ph == "B" && !s.is_null(6)) {
        ++open[key];
        e.dur = std::max(0.0, s.real(6));
        e.args = args_object(s.text_view(9));
      } else if (ph == "E" && open[key] > 0) {
        --open[key];  // folded into its B's duration
        continue;
      } else if (ph == "X") {
        e.dur = s.is_null(6) ? 0.0 : std::max(0.0, s.real(6));
        e.args = args_object(s.text_view(9));
      } else if (ph == "i" || ph == "I") {
        e.args = args_object(s.text_view(9));
      } else {
        // A B that never ended, an E that never began, or a phase this exporter does not
        // reproduce: an instant event that says so (a lone B or E would unbalance the thread).
        e.args = args_object(s.text_view(9), "tlscope_original_ph", ph);
        if (ph == "B") e.name += " (begin without end)";
        if (ph == "E") e.name += " (end without begin)";
      }
      events_.push_back(std::move(e));
    }
  }

  void collectives() {
    if (!db_.has_table("collectives")) return;
    std::map<std::string, int64_t> group_index;
    Statement g = db_.prepare("SELECT DISTINCT coalesce(pg_name, '') FROM collectives ORDER BY 1");
    while (g.step()) group_index.emplace(g.text(0), static_cast<int64_t>(group_index.size()));
    Statement c = db_.prepare(
        "SELECT rank, coalesce(op, ''), coalesce(seq, -1), coalesce(pg_name, ''), "
        "coalesce(pg_desc, ''), coalesce(input_sizes, ''), coalesce(state, ''), "
        "coalesce(created_us, started_us), coalesce(completed_us, started_us, created_us) "
        "FROM collectives ORDER BY rank, pg_name, created_us, id");
    // Per (pid, group): the end time of each lane's last collective.
    std::map<std::pair<int64_t, std::string>, std::vector<double>> lanes;
    while (c.step()) {
      if (c.is_null(7) || !std::isfinite(c.real(7))) {
        ++skipped_;
        continue;
      }
      TraceEvent e;
      e.pid = pid_of(c, 0);
      e.ts = c.real(7);
      e.dur = std::max(0.0, c.real(8) - e.ts);
      std::vector<double>& ends = lanes[{e.pid, c.text(3)}];
      size_t lane = 0;
      while (lane < ends.size() && ends[lane] > e.ts) ++lane;
      if (lane == ends.size()) {
        if (ends.size() < kLanesPerGroup)
          ends.push_back(0);
        else
          lane = ends.size() - 1;
      }
      ends[lane] = e.ts + e.dur;
      e.tid = kCollectiveTid + group_index[c.text(3)] * kLanesPerGroup + static_cast<int64_t>(lane);
      std::string track = "collectives pg " + c.text(3);
      if (!c.text_view(4).empty()) track += " (" + c.text(4) + ")";
      if (lane > 0) track += " overlap " + std::to_string(lane);
      thread_names_.emplace(std::pair{e.pid, e.tid}, track);
      e.name = c.text(1) + " #" + std::to_string(c.int64(2));
      e.cat = "collective";
      e.args = "{\"pg\":";
      append_json_string(e.args, c.text_view(3));
      e.args += ",\"sizes\":";
      append_json_string(e.args, c.text_view(5));
      e.args += ",\"state\":";
      append_json_string(e.args, c.text_view(6));
      e.args += "}";
      events_.push_back(std::move(e));
    }
  }

  const Database& db_;
  std::vector<TraceEvent> events_;
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names_;
  std::set<int64_t> ranks_;
  int64_t unranked_pid_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace

ChromeTraceResult export_chrome_trace(const std::string& db_path, const std::string& out_path) {
  ChromeTraceResult result;
  Database db(db_path);
  result.error = db.not_tlscope_reason();
  if (!result.error.empty()) return result;
  TraceBuilder trace(db);
  trace.build();
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out) {
    result.error = out_path + ": cannot write";
    return result;
  }
  if (!trace.write(out, result.events)) {
    result.error = out_path + ": write failed";
    return result;
  }
  result.skipped = trace.skipped();
  result.ok = true;
  return result;
}

}  // namespace tlscope::exporters
