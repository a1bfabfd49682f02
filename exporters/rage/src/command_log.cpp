// Writing and reading tlscope's command records. Writing must stay far under a millisecond (it
// runs around every invocation): one small file, written with plain POSIX calls, a rename, and a
// directory listing only to prune.
#include "tlscope/exporters/rage/command_log.hpp"

#include <dirent.h>
#include <fcntl.h>
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

namespace tlscope::exporters::rage {
namespace {

constexpr std::string_view kSuffix = ".json";

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

std::vector<std::string> record_names(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (!d) return names;
  while (dirent* e = readdir(d)) {
    std::string_view name = e->d_name;
    if (name.size() > kSuffix.size() && name.substr(name.size() - kSuffix.size()) == kSuffix)
      names.emplace_back(name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::string read_string(simdjson::ondemand::value v) {
  std::string_view s;
  if (v.get_string().get(s)) return {};
  return std::string(s);
}

}  // namespace

std::string command_log_dir() {
  const char* xdg = std::getenv("XDG_STATE_HOME");
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/tlscope/commands";
  const char* home = std::getenv("HOME");
  return std::string(home && home[0] ? home : "/tmp") + "/.local/state/tlscope/commands";
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
  std::string out = "{\n  \"id\": ";
  append_json_string(out, r.id);
  out += ",\n  \"started_utc\": ";
  append_json_string(out, r.started_utc);
  out += ",\n  \"pid\": " + std::to_string(r.pid) + ",\n  \"version\": ";
  append_json_string(out, r.version);
  out += ",\n  \"cwd\": ";
  append_json_string(out, r.cwd);
  out += ",\n  \"argv\": ";
  append_string_array(out, r.argv);
  out += ",\n  \"exit_status\": " + (r.exit_status ? std::to_string(*r.exit_status) : "null");
  char duration[32];
  std::snprintf(duration, sizeof duration, "%.6f", r.duration_s);
  out += ",\n  \"duration_s\": ";
  out += duration;
  out += ",\n  \"inputs\": ";
  append_string_array(out, r.inputs);
  out += ",\n  \"database\": ";
  append_json_string(out, r.database);
  out += ",\n  \"report\": ";
  append_json_string(out, r.report);
  out += ",\n  \"stderr_tail\": ";
  append_json_string(out, r.stderr_tail);
  out += "\n}\n";
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

std::string write_command_record(const std::string& dir, const CommandRecord& record, bool prune) {
  if (!make_dirs(dir)) return dir + ": " + std::strerror(errno);
  std::string path = dir + "/" + record.id + std::string(kSuffix);
  std::string temp = path + ".tmp";
  std::string text = command_record_json(record);
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return temp + ": " + std::strerror(errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string why = temp + ": " + std::strerror(errno);
      close(fd);
      unlink(temp.c_str());
      return why;
    }
    done += static_cast<size_t>(n);
  }
  close(fd);
  if (rename(temp.c_str(), path.c_str()) != 0) {
    std::string why = path + ": " + std::strerror(errno);
    unlink(temp.c_str());
    return why;
  }
  if (prune) {
    std::vector<std::string> names = record_names(dir);
    // Names sort like start times; another tlscope may prune at once, so ENOENT is fine.
    for (size_t i = 0; i + kCommandsKept < names.size(); ++i)
      unlink((dir + "/" + names[i]).c_str());
  }
  return {};
}

CommandListing list_command_records(const std::string& dir) {
  CommandListing listing;
  std::vector<std::string> names = record_names(dir);
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    std::string path = dir + "/" + *it;
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    auto record = parse_command_record(text.str(), &error);
    if (record)
      listing.records.push_back(std::move(*record));
    else
      listing.problems.push_back(path + ": " + error);
  }
  return listing;
}

}  // namespace tlscope::exporters::rage
