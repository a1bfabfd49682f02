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
#include <fstream>
#include <sstream>

namespace tlscope::command_log {
namespace {

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

bool make_dirs(const std::string& dir) {
  struct stat st {};
  if (stat(dir.c_str(), &st) == 0) return S_ISDIR(st.st_mode);
  size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !make_dirs(dir.substr(0, slash))) return false;
  // The records hold command lines and paths: this user's only.
  return mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST;
}

// Reads the log: every line parsed, the last line of each id kept, newest first.
CommandListing read_log(const std::string& path) {
  CommandListing listing;
  std::ifstream in(path, std::ios::binary);
  std::vector<CommandRecord> all;
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.empty()) continue;
    std::string error;
    if (auto record = parse_command_record(line, &error))
      all.push_back(std::move(*record));
    else
      listing.problems.push_back(path + ":" + std::to_string(n) + ": " + error);
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

bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Rewrites the log with its newest records. The caller holds the exclusive lock on `fd`.
void prune_log(const std::string& path) {
  CommandListing listing = read_log(path);
  std::string text;
  for (auto it = listing.records.rbegin(); it != listing.records.rend(); ++it)
    text += command_record_json(*it);
  std::string temp = path + ".prune-" + std::to_string(getpid());
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;  // pruning is best effort: the log only grows until the next try
  bool ok = write_all(fd, text);
  close(fd);
  if (!ok || rename(temp.c_str(), path.c_str()) != 0) unlink(temp.c_str());
}

std::string read_string(simdjson::ondemand::value v) {
  std::string_view s;
  if (v.get_string().get(s)) return {};
  return std::string(s);
}

}  // namespace

std::string command_log_dir() {
  const char* xdg = std::getenv("XDG_STATE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/tlscope";
  const char* home = std::getenv("HOME");
  return std::string(home && home[0] ? home : "/tmp") + "/.local/state/tlscope";
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
  if (!make_dirs(dir)) return dir + ": " + std::strerror(errno);
  std::string path = command_log_path(dir);
  std::string text = command_record_json(record);
  for (int attempt = 0; attempt < 3; ++attempt) {
    int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return path + ": " + std::strerror(errno);
    flock(fd, LOCK_SH);
    // A prune renames a new file into place: append to that one, not to the replaced inode.
    struct stat opened {
    }, now{};
    if (fstat(fd, &opened) != 0 || stat(path.c_str(), &now) != 0 || opened.st_ino != now.st_ino) {
      close(fd);
      continue;
    }
    if (!write_all(fd, text)) {
      std::string why = path + ": " + std::strerror(errno);
      close(fd);
      return why;
    }
    if (static_cast<uint64_t>(opened.st_size) + text.size() > kCommandLogPruneBytes &&
        flock(fd, LOCK_EX | LOCK_NB) == 0)
      prune_log(path);
    close(fd);
    return {};
  }
  return path + ": replaced while appending";
}

CommandListing list_command_records(const std::string& dir) {
  return read_log(command_log_path(dir));
}

}  // namespace tlscope::command_log
