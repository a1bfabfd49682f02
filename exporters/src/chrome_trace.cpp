// Chrome-trace export: writes views::TraceEvents as Trace Event Format JSON (process and thread
// metadata, then complete (X) and instant (i) events), streaming in 1 MB chunks.
#include "tlscope/exporters/chrome_trace.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/safe_output.hpp"
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

// Writes to `fd`; false (errno set) when a write failed.
bool write_trace(const views::TraceEvents& trace, int fd, uint64_t& count) {
  std::string buf = "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n";
  bool first = true, ok = true;
  int failure = 0;
  auto next = [&] {
    if (!first) buf += ",\n";
    first = false;
    ++count;
    if (buf.size() > (1 << 20)) {
      if (ok && !views::write_all(fd, buf)) ok = false, failure = errno;
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
  if (!ok) errno = failure;
  return ok && views::write_all(fd, buf);
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
  // A file is written into a private temporary beside its path and renamed over it once
  // complete (views::AtomicFile): a full disk keeps the earlier trace, and a symlink planted at
  // the path is replaced, never written through. Only a device or FIFO is written in place
  // (-o /dev/stdout, whose link a rename would replace; stdout may be a file then).
  struct stat st {};
  bool in_place =
      out_path.rfind("/dev/", 0) == 0 || out_path.rfind("/proc/", 0) == 0 ||
      (::stat(out_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode));
  if (in_place) {
    int fd = ::open(out_path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    bool written = fd >= 0 && write_trace(*trace, fd, result.events);
    int err = errno;
    if (fd >= 0) ::close(fd);
    if (!written) {
      result.error = out_path + ": cannot write: " + views::write_error_text(err);
      return result;
    }
  } else {
    views::AtomicFile out;
    if (std::string why = out.open(out_path); !why.empty()) {
      result.error = why;
      return result;
    }
    if (!write_trace(*trace, out.fd(), result.events))
      result.error = out_path + ": cannot write: " + views::write_error_text(errno);
    else
      result.error = out.commit();
    if (!result.error.empty()) return result;
  }
  result.skipped = trace->skipped;
  result.ok = true;
  return result;
}

}  // namespace tlscope::exporters
