// Chrome-trace export: chromium_event phases (B/E pairs become X events) and collectives.
#include "tlscope/exporters/chrome_trace.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "sqlite_query.hpp"
#include "tlscope/exporters/html.hpp"

namespace tlscope::exporters {

namespace {

void number(std::string& out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  out += buf;
}

}  // namespace

ChromeTraceResult export_chrome_trace(const std::string& db_path, const std::string& out_path) {
  ChromeTraceResult result;
  Database db(db_path);
  if (!db.ok()) {
    result.error = db.error();
    return result;
  }
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  if (!out) {
    result.error = out_path + ": cannot write";
    return result;
  }
  std::string buf = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  bool first = true;
  auto begin_event = [&]() {
    if (!first) buf += ",\n";
    first = false;
    ++result.events;
    if (buf.size() > (1 << 20)) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  };
  // Process names so Perfetto labels each pid as its rank.
  {
    std::string sql = "SELECT DISTINCT coalesce(rank, -1) FROM chromium_events";
    if (db.has_table("collectives")) sql += " UNION SELECT coalesce(rank, -1) FROM collectives";
    Statement s = db.prepare(sql + " ORDER BY 1");
    while (s.step()) {
      begin_event();
      int64_t rank = s.int64(0);
      buf += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(rank) +
             ",\"tid\":0,\"args\":{\"name\":\"" +
             (rank < 0 ? std::string("no rank") : "rank " + std::to_string(rank)) + "\"}}";
    }
  }
  if (db.has_table("chromium_events")) {
    // An E row that closed a B is folded into the B row's dur (docs/schema.md). E rows of a
    // (file, name) that has matched pairs are those closers; other E rows are written as is.
    std::set<std::pair<int64_t, std::string>> matched;
    Statement m = db.prepare(
        "SELECT DISTINCT file_id, name FROM chromium_events WHERE ph = 'B' AND dur IS NOT NULL");
    while (m.step()) matched.insert({m.int64(0), m.text(1)});
    Statement s = db.prepare(
        "SELECT coalesce(rank, -1), name, coalesce(cat, ''), ph, ts, dur, coalesce(tid, 0), "
        "coalesce(args, '{}'), file_id FROM chromium_events ORDER BY rank, ts");
    while (s.step()) {
      std::string ph = s.text(3);
      if (ph == "E" && matched.count({s.int64(8), s.text(1)})) continue;
      begin_event();
      bool complete = ph == "B" && !s.is_null(5);
      buf += "{\"name\":";
      append_json_string(buf, s.text_view(1));
      buf += ",\"cat\":";
      append_json_string(buf, s.text_view(2));
      buf += ",\"ph\":";
      append_json_string(buf, complete ? "X" : ph == "i" ? "i" : ph);
      buf += ",\"ts\":";
      number(buf, s.real(4));
      if (complete) {
        buf += ",\"dur\":";
        number(buf, s.real(5));
      }
      if (ph == "i") buf += ",\"s\":\"p\"";
      buf += ",\"pid\":" + std::to_string(s.int64(0)) + ",\"tid\":" + std::to_string(s.int64(6));
      // args were stored as JSON text by ingest; anything else is wrapped as a string.
      std::string_view args = s.text_view(7);
      buf += ",\"args\":";
      if (!args.empty() && args.front() == '{') buf += args;
      else { buf += "{\"raw\":"; append_json_string(buf, args); buf += "}"; }
      buf += "}";
    }
  }
  // Collectives on their own track (tid 1000 + process-group order) under the rank's pid.
  if (db.has_table("collectives")) {
    Statement c = db.prepare(
        "SELECT coalesce(rank, -1), coalesce(op, ''), coalesce(seq, -1), coalesce(pg_name, ''), "
        "coalesce(input_sizes, ''), coalesce(state, ''), coalesce(created_us, started_us, 0), "
        "coalesce(completed_us, started_us, created_us, 0), "
        "(SELECT count(DISTINCT pg_name) FROM collectives d WHERE d.pg_name < c.pg_name) "
        "FROM collectives c ORDER BY rank, created_us");
    while (c.step()) {
      begin_event();
      buf += "{\"name\":";
      append_json_string(buf, c.text(1) + " #" + std::to_string(c.int64(2)));
      buf += ",\"cat\":\"collective\",\"ph\":\"X\",\"ts\":";
      number(buf, c.real(6));
      buf += ",\"dur\":";
      number(buf, std::max(0.0, c.real(7) - c.real(6)));
      buf += ",\"pid\":" + std::to_string(c.int64(0)) +
             ",\"tid\":" + std::to_string(1000 + c.int64(8)) + ",\"args\":{\"pg\":";
      append_json_string(buf, c.text_view(3));
      buf += ",\"sizes\":";
      append_json_string(buf, c.text_view(4));
      buf += ",\"state\":";
      append_json_string(buf, c.text_view(5));
      buf += "}}";
    }
  }
  buf += "\n]}\n";
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  out.close();
  if (!out) {
    result.error = out_path + ": write failed";
    return result;
  }
  result.ok = true;
  return result;
}

}  // namespace tlscope::exporters
