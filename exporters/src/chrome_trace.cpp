// Chrome-trace export: writes views::TraceEvents as Trace Event Format JSON (process and thread
// metadata, then complete (X) and instant (i) events), streaming in 1 MB chunks.
#include "tlscope/exporters/chrome_trace.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/database.hpp"
#include "tlscope/views/trace_events.hpp"

namespace tlscope::exporters {

namespace fs = std::filesystem;

namespace {

void number(std::string& out, double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  out += buf;
}

// The args object: the logged args when they are a JSON object (anything else is wrapped as
// {"raw": text}), with the extra string fields appended.
void append_args(std::string& buf, const views::TraceEvent& e) {
  std::string out;
  std::string_view args = e.logged_args;
  if (!e.has_logged_args) {
    out = "{}";
  } else if (args.size() >= 2 && args.front() == '{' && args.back() == '}') {
    out = std::string(args);
  } else {
    out = "{\"raw\":";
    append_json_string(out, args);
    out += "}";
  }
  for (const auto& [key, value] : e.extra_args) {
    std::string field;
    append_json_string(field, key);
    field += ":";
    append_json_string(field, value);
    bool empty = out.find_first_not_of(" \t\n", 1) == out.size() - 1;
    out.insert(out.size() - 1, (empty ? "" : ",") + field);
  }
  buf += out;
}

void append_event(std::string& buf, const views::TraceEvent& e) {
  buf += "{\"name\":";
  append_json_string(buf, e.name);
  buf += ",\"cat\":";
  append_json_string(buf, e.cat);
  buf += e.instant() ? ",\"ph\":\"i\",\"s\":\"t\",\"ts\":" : ",\"ph\":\"X\",\"ts\":";
  number(buf, e.ts_us);
  if (!e.instant()) {
    buf += ",\"dur\":";
    number(buf, e.dur_us);
  }
  buf += ",\"pid\":" + std::to_string(e.pid) + ",\"tid\":" + std::to_string(e.tid) + ",\"args\":";
  append_args(buf, e);
  buf += "}";
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

bool write_trace(const views::TraceEvents& trace, std::ofstream& out, uint64_t& count) {
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
  for (const views::TraceProcess& p : trace.processes) {
    next();
    append_metadata(buf, "process_name", p.pid, 0, p.name);
    next();
    buf += "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(p.pid) +
           ",\"tid\":0,\"args\":{\"sort_index\":" + std::to_string(p.pid) + "}}";
  }
  for (const views::TraceThread& t : trace.threads) {
    next();
    append_metadata(buf, "thread_name", t.pid, t.tid, t.name);
  }
  for (const views::TraceEvent& e : trace.events) {
    next();
    append_event(buf, e);
  }
  buf += "\n]}\n";
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  return static_cast<bool>(out);
}

}  // namespace

ChromeTraceResult export_chrome_trace(const std::string& db_path, const std::string& out_path) {
  ChromeTraceResult result;
  views::Database db(db_path);
  result.error = db.not_tlscope_reason();
  if (!result.error.empty()) return result;
  views::Result<views::TraceEvents> trace = views::load_trace_events(db);
  if (!trace.ok()) {
    result.error = trace.error;
    return result;
  }
  // A regular file (or a new one) is written beside its path and renamed over it once complete,
  // so a full disk keeps the earlier trace instead of a cut one under its name. Anything else is
  // written through: a device or FIFO, and a symlink, which a rename would replace (-o
  // /dev/stdout with stdout on a file turned the /dev/stdout link into a file).
  std::error_code ec;
  fs::file_status target = fs::symlink_status(out_path, ec);
  bool in_place = fs::exists(target) && !fs::is_regular_file(target);
  std::string write_path = in_place ? out_path : out_path + ".partial";
  std::ofstream out(write_path, std::ios::binary | std::ios::trunc);
  if (!out) {
    result.error = out_path + ": cannot write";
    return result;
  }
  bool written = write_trace(*trace, out, result.events);
  out.close();  // the last buffered bytes can fail here too
  if (!written || out.fail() ||
      (!in_place && std::rename(write_path.c_str(), out_path.c_str()) != 0)) {
    if (!in_place) fs::remove(write_path, ec);
    result.error = out_path + ": write failed";
    return result;
  }
  result.skipped = trace->skipped;
  result.ok = true;
  return result;
}

}  // namespace tlscope::exporters
