// The Trace Event Format rules Perfetto's and chrome://tracing's JSON importers rely on, checked
// on a written trace file (parsed with SQLite's JSON functions, independent of the exporter):
// a top-level traceEvents array; known ph values; name/pid/tid on every event and a numeric ts
// on every non-metadata event; X events with dur >= 0 that nest per thread (no partial
// overlap); B/E balanced and properly nested per pid/tid; process_name for every pid and
// thread_name for every thread used.
#pragma once

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tlscope::test {

struct TraceEventRow {
  std::string ph, name, s;
  long long pid = 0, tid = 0;
  double ts = 0, dur = 0;
  bool has_ts = false, has_dur = false, ints = true;
};

struct TraceCheck {
  std::vector<TraceEventRow> events;
  std::vector<std::string> violations;
  std::map<std::string, long long> by_ph;
  std::set<long long> pids;  // of non-metadata events
};

inline TraceCheck check_trace_rules(const std::string& json) {
  TraceCheck out;
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  sqlite3_stmt* s = nullptr;
  auto fail = [&](const std::string& v) {
    if (out.violations.size() < 20) out.violations.push_back(v);
  };
  sqlite3_prepare_v2(db, "SELECT json_valid(?1), json_type(?1, '$.traceEvents')", -1, &s, nullptr);
  sqlite3_bind_text(s, 1, json.c_str(), -1, SQLITE_STATIC);
  sqlite3_step(s);
  bool valid = sqlite3_column_int(s, 0) == 1;
  const unsigned char* type = sqlite3_column_text(s, 1);
  std::string top = type ? reinterpret_cast<const char*>(type) : "";
  sqlite3_finalize(s);
  if (!valid || top != "array") {
    fail("no top-level traceEvents array (valid JSON: " + std::to_string(valid) + ")");
    sqlite3_close(db);
    return out;
  }
  sqlite3_prepare_v2(db,
                     "SELECT json_extract(value, '$.ph'), json_extract(value, '$.name'), "
                     "json_type(value, '$.pid'), json_extract(value, '$.pid'), "
                     "json_type(value, '$.tid'), json_extract(value, '$.tid'), "
                     "json_type(value, '$.ts'), json_extract(value, '$.ts'), "
                     "json_type(value, '$.dur'), json_extract(value, '$.dur'), "
                     "coalesce(json_extract(value, '$.s'), ''), json_type(value, '$.args') "
                     "FROM json_each(?1, '$.traceEvents')",
                     -1, &s, nullptr);
  sqlite3_bind_text(s, 1, json.c_str(), -1, SQLITE_STATIC);
  auto text = [&](int c) {
    const unsigned char* t = sqlite3_column_text(s, c);
    return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
  };
  static const std::set<std::string> kPh = {"B", "E", "X", "i", "I", "M", "C", "b", "e",
                                            "n", "s", "t", "f", "P", "O", "N", "D", "R"};
  while (sqlite3_step(s) == SQLITE_ROW) {
    TraceEventRow e;
    e.ph = text(0);
    e.name = text(1);
    e.ints = text(2) == "integer" && text(4) == "integer";
    e.pid = sqlite3_column_int64(s, 3);
    e.tid = sqlite3_column_int64(s, 5);
    e.has_ts = text(6) == "integer" || text(6) == "real";
    e.ts = sqlite3_column_double(s, 7);
    e.has_dur = text(8) == "integer" || text(8) == "real";
    e.dur = sqlite3_column_double(s, 9);
    e.s = text(10);
    std::string where =
        "event " + std::to_string(out.events.size()) + " (" + e.ph + " " + e.name + ")";
    if (!kPh.count(e.ph)) fail(where + ": unknown ph");
    if (text(1).empty() && sqlite3_column_type(s, 1) == SQLITE_NULL) fail(where + ": no name");
    if (!e.ints) fail(where + ": pid/tid not integers");
    if (e.ph != "M" && !e.has_ts) fail(where + ": no numeric ts");
    if (e.ph == "X" && (!e.has_dur || e.dur < 0)) fail(where + ": X without dur >= 0");
    if ((e.ph == "i" || e.ph == "I") && !e.s.empty() && e.s != "g" && e.s != "p" && e.s != "t")
      fail(where + ": bad instant scope");
    std::string args = text(11);
    if (!args.empty() && args != "object") fail(where + ": args not an object");
    ++out.by_ph[e.ph];
    if (e.ph != "M") out.pids.insert(e.pid);
    out.events.push_back(e);
  }
  sqlite3_finalize(s);
  sqlite3_close(db);

  // Metadata names for every pid and thread used.
  std::set<long long> named_pids;
  std::set<std::pair<long long, long long>> named_threads, threads;
  for (const auto& e : out.events) {
    if (e.ph == "M" && e.name == "process_name") named_pids.insert(e.pid);
    if (e.ph == "M" && e.name == "thread_name") named_threads.insert({e.pid, e.tid});
    if (e.ph != "M") threads.insert({e.pid, e.tid});
  }
  for (long long pid : out.pids)
    if (!named_pids.count(pid)) fail("pid " + std::to_string(pid) + " has no process_name");
  for (const auto& t : threads)
    if (!named_threads.count(t))
      fail("thread " + std::to_string(t.first) + "/" + std::to_string(t.second) +
           " has no thread_name");

  // Per thread, in ts order (file order among equal ts): B/E balanced and nested; X slices nest.
  std::map<std::pair<long long, long long>, std::vector<const TraceEventRow*>> per_thread;
  for (const auto& e : out.events)
    if (e.ph == "B" || e.ph == "E" || e.ph == "X") per_thread[{e.pid, e.tid}].push_back(&e);
  for (auto& [thread, evs] : per_thread) {
    std::stable_sort(evs.begin(), evs.end(), [](auto* a, auto* b) {
      return a->ts < b->ts || (a->ts == b->ts && a->ph == "X" && b->ph == "X" && a->dur > b->dur);
    });
    std::string where =
        "thread " + std::to_string(thread.first) + "/" + std::to_string(thread.second);
    std::vector<const TraceEventRow*> be;
    std::vector<double> x_ends;
    for (const TraceEventRow* e : evs) {
      if (e->ph == "B") be.push_back(e);
      if (e->ph == "E") {
        if (be.empty())
          fail(where + ": E '" + e->name + "' without B");
        else
          be.pop_back();
      }
      if (e->ph == "X") {
        while (!x_ends.empty() && x_ends.back() <= e->ts) x_ends.pop_back();
        // Tolerance: ts/dur are written with 3 decimals.
        if (!x_ends.empty() && e->ts + e->dur > x_ends.back() + 0.002)
          fail(where + ": X '" + e->name + "' overlaps its enclosing slice without nesting");
        x_ends.push_back(e->ts + e->dur);
      }
    }
    if (!be.empty()) fail(where + ": " + std::to_string(be.size()) + " B without E");
  }
  return out;
}

}  // namespace tlscope::test
