// Writing and reading tlscope's command log. Writing must stay far under a millisecond (it runs
// twice around every invocation): an append with plain POSIX calls; a rewrite only now and then.
#include "tlscope/command_log/command_log.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <simdjson.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>

#include "tlscope/model/safe_output.hpp"

namespace tlscope::command_log {
namespace {

constexpr const char* kRotatedSuffix = ".1";
constexpr size_t kMaxRecordBytes = 64 * 1024;  // one line of the log

// Length of the valid UTF-8 sequence at s[i], or 0 when the bytes there are not one.
size_t utf8_length(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return 0;
  if (n == 2 && c < 0xc2) return 0;  // overlong
  return n;
}

// A JSON string. Bytes that are not UTF-8 become \u00XX (the byte's value as a code point): the
// record stays valid JSON and the byte stays visible.
void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = utf8_length(s, i);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (n == 1 && c >= 0x20 && c != 0x7f) {
      out += static_cast<char>(c);
    } else if (n > 1) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    }
    ++i;
  }
  out += '"';
}

void append_string_array(std::string& out, const std::vector<std::string>& items) {
  out += '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    append_json_string(out, items[i]);
  }
  out += ']';
}

// The last `limit` bytes of the regular file `path` that start a line, read without blocking:
// a FIFO, a device or a link there is refused ("" and `problem` set), never read.
std::string read_tail(const std::string& path, uint64_t limit, std::string* problem) {
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT)
      *problem = path + ": " + (errno == ELOOP ? "is a symbolic link" : std::strerror(errno)) +
                 "; not read";
    return {};
  }
  struct stat st {};
  std::string text;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *problem = path + ": not a regular file; not read";
  } else {
    uint64_t size = static_cast<uint64_t>(st.st_size);
    uint64_t from = size > limit ? size - limit : 0;
    text.resize(static_cast<size_t>(size - from));
    size_t got = 0;
    while (got < text.size()) {
      ssize_t n = pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(from + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    text.resize(got);
    // Started inside a record: its rest is no record.
    if (from > 0)
      text.erase(0, text.find('\n') == std::string::npos ? text.size() : text.find('\n') + 1);
  }
  close(fd);
  return text;
}

// Reads the log (the rotated file, then the current one), tails only: every line parsed, the
// last line of each id kept, newest first.
CommandListing read_log(const std::string& path) {
  CommandListing listing;
  std::vector<CommandRecord> all;
  for (const std::string& file : {path + kRotatedSuffix, path}) {
    std::string problem;
    std::istringstream in(read_tail(file, kCommandLogReadBytes, &problem));
    if (!problem.empty()) listing.problems.push_back(problem);
    std::string line;
    for (size_t n = 1; std::getline(in, line); ++n) {
      if (line.empty()) continue;
      std::string error;
      if (auto record = parse_command_record(line, &error))
        all.push_back(std::move(*record));
      else
        listing.problems.push_back(file + ":" + std::to_string(n) + ": " + error);
    }
  }
  // Ids sort like start times; the later line of an id is its end record.
  std::stable_sort(all.begin(), all.end(),
                   [](const CommandRecord& a, const CommandRecord& b) { return a.id > b.id; });
  for (CommandRecord& r : all) {
    if (!listing.records.empty() && listing.records.back().id == r.id) {
      listing.records.back() = std::move(r);
      continue;
    }
    if (listing.records.size() == kCommandsKept) break;
    listing.records.push_back(std::move(r));
  }
  return listing;
}

// Rotation, under the exclusive lock on `fd` (the current log): its tail becomes the rotated
// file (replaced atomically) and the current file starts again empty. Whatever the log's size
// (a planted 50 MB one included), this reads and writes at most kCommandLogRotateBytes.
void rotate_log(const std::string& path, int fd) {
  std::string problem;
  std::string tail = read_tail(path, kCommandLogRotateBytes, &problem);
  if (!problem.empty()) return;
  model::write_file_atomically(path + kRotatedSuffix, tail, 0600);
  if (ftruncate(fd, 0) != 0) return;  // best effort: the log only grows until the next try
}

// A string of at most `limit` bytes: the start (or with `keep_end`, the end) and a note.
std::string clipped(const std::string& s, size_t limit, bool keep_end = false) {
  if (s.size() <= limit) return s;
  std::string note = "[" + std::to_string(s.size() - limit) + " bytes cut]";
  return keep_end ? note + s.substr(s.size() - limit) : s.substr(0, limit) + note;
}

// `record` with every field at most `field` bytes and each list at most `items` long.
CommandRecord bounded(const CommandRecord& record, size_t field, size_t items) {
  CommandRecord r = record;
  r.cwd = clipped(r.cwd, field);
  r.database = clipped(r.database, field);
  r.report = clipped(r.report, field);
  r.version = clipped(r.version, 64);
  r.stderr_tail = clipped(r.stderr_tail, 2 * field, true);
  for (std::vector<std::string>* list : {&r.argv, &r.inputs}) {
    if (list->size() > items) {
      size_t cut = list->size() - items;
      list->resize(items);
      list->push_back("[" + std::to_string(cut) + " more]");
    }
    for (std::string& item : *list) item = clipped(item, field);
  }
  return r;
}

// The record's line, at most kMaxRecordBytes whatever the command line or stderr held: fields
// are clipped, harder when escaping (up to 6 bytes a byte) still makes the line too long.
std::string bounded_json(const CommandRecord& record) {
  std::string text;
  for (auto [field, items] : {std::pair<size_t, size_t>{2048, 64}, {256, 16}, {64, 4}}) {
    text = command_record_json(bounded(record, field, items));
    if (text.size() <= kMaxRecordBytes) break;
  }
  return text;
}

std::string read_string(simdjson::ondemand::value v) {
  std::string_view s;
  if (v.get_string().get(s)) return {};
  return std::string(s);
}

}  // namespace

std::string command_log_dir() {
  return model::user_folder("state");
}

void stamp_new_record(CommandRecord& record) {
  struct timeval tv {};
  gettimeofday(&tv, nullptr);
  struct tm tm {};
  gmtime_r(&tv.tv_sec, &tm);
  char day[32];
  std::strftime(day, sizeof day, "%Y%m%dT%H%M%S", &tm);
  char iso[40];
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%S", &tm);
  char micro[16];
  std::snprintf(micro, sizeof micro, ".%06ld", static_cast<long>(tv.tv_usec));
  record.pid = static_cast<long>(getpid());
  record.id = std::string(day) + micro + "Z-" + std::to_string(record.pid);
  record.started_utc = std::string(iso) + micro + "Z";
}

std::string command_record_json(const CommandRecord& r) {
  std::string out = "{\"id\": ";
  append_json_string(out, r.id);
  out += ", \"started_utc\": ";
  append_json_string(out, r.started_utc);
  out += ", \"pid\": " + std::to_string(r.pid) + ", \"version\": ";
  append_json_string(out, r.version);
  out += ", \"cwd\": ";
  append_json_string(out, r.cwd);
  out += ", \"argv\": ";
  append_string_array(out, r.argv);
  out += ", \"exit_status\": " + (r.exit_status ? std::to_string(*r.exit_status) : "null");
  char duration[32];
  std::snprintf(duration, sizeof duration, "%.6f", r.duration_s);
  out += ", \"duration_s\": ";
  out += duration;
  out += ", \"inputs\": ";
  append_string_array(out, r.inputs);
  out += ", \"database\": ";
  append_json_string(out, r.database);
  out += ", \"report\": ";
  append_json_string(out, r.report);
  out += ", \"stderr_tail\": ";
  append_json_string(out, r.stderr_tail);
  out += "}\n";
  return out;
}

std::optional<CommandRecord> parse_command_record(std::string_view json, std::string* error) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string text(json);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object obj;
  auto fail = [&](const std::string& why) -> std::optional<CommandRecord> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (auto e = parser.iterate(text).get(doc); e) return fail(simdjson::error_message(e));
  if (auto e = doc.get_object().get(obj); e) return fail("not a JSON object");
  CommandRecord r;
  for (auto field : obj) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return fail("unreadable key");
    simdjson::ondemand::value v;
    if (field.value().get(v)) return fail("unreadable value of " + std::string(key));
    if (key == "id")
      r.id = read_string(v);
    else if (key == "started_utc")
      r.started_utc = read_string(v);
    else if (key == "version")
      r.version = read_string(v);
    else if (key == "cwd")
      r.cwd = read_string(v);
    else if (key == "database")
      r.database = read_string(v);
    else if (key == "report")
      r.report = read_string(v);
    else if (key == "stderr_tail")
      r.stderr_tail = read_string(v);
    else if (key == "pid") {
      int64_t pid = 0;
      if (!v.get_int64().get(pid)) r.pid = static_cast<long>(pid);
    } else if (key == "exit_status") {
      bool null = false;
      int64_t status = 0;
      if (!v.is_null().get(null) && !null && !v.get_int64().get(status))
        r.exit_status = static_cast<int>(status);
    } else if (key == "duration_s") {
      double d = 0;
      if (!v.get_double().get(d)) r.duration_s = d;
    } else if (key == "argv" || key == "inputs") {
      simdjson::ondemand::array items;
      if (v.get_array().get(items)) return fail(std::string(key) + " is not an array");
      std::vector<std::string>& into = key == "argv" ? r.argv : r.inputs;
      for (auto item : items) {
        std::string_view s;
        if (item.get_string().get(s)) return fail(std::string(key) + " holds a non-string");
        into.emplace_back(s);
      }
    }
  }
  if (r.id.empty()) return fail("no id");
  return r;
}

std::string command_log_path(const std::string& dir) {
  return dir + "/commands.jsonl";
}

std::string append_command_record(const std::string& dir, const CommandRecord& record) {
  if (dir.empty()) return "no home folder is known (HOME unset) and XDG_STATE_HOME is not set";
  // The records hold command lines and paths: a folder of this user's only.
  if (std::string why = model::ensure_private_folder(dir); !why.empty()) return why;
  std::string path = command_log_path(dir);
  std::string text = bounded_json(record);
  // Without O_NONBLOCK a FIFO planted there would block the open; without O_NOFOLLOW a link
  // would be written through.
  int fd =
      open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
  if (fd < 0) {
    struct stat st {};
    if (errno == ELOOP) return path + ": is a symbolic link; refused";
    if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      return path + ": not a regular file; refused";
    return path + ": " + std::strerror(errno);
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
    close(fd);
    return path + ": not a regular file of this user's; refused";
  }
  // One write under the exclusive lock: concurrent commands never interleave or lose a record,
  // and a rotation never runs while another command appends.
  flock(fd, LOCK_EX);
  std::string why;
  if (!model::write_all(fd, text)) why = path + ": " + model::write_error_text(errno);
  if (why.empty() && fstat(fd, &st) == 0 &&
      static_cast<uint64_t>(st.st_size) > kCommandLogRotateBytes)
    rotate_log(path, fd);
  close(fd);
  return why;
}

CommandListing list_command_records(const std::string& dir) {
  return read_log(command_log_path(dir));
}

}  // namespace tlscope::command_log
