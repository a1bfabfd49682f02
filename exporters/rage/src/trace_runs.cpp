// Probing trace files for their time span and grouping them into runs (see trace_runs.hpp).
#include "tlscope/exporters/rage/trace_runs.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <unordered_set>

#include "read_buffer.hpp"
#include "tlscope/exporters/rage/regular_file.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::exporters::rage {
namespace {

bool digits(std::string_view s, size_t at, size_t n) {
  if (s.size() < at + n) return false;
  for (size_t i = at; i < at + n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

int num(std::string_view s, size_t at, size_t n) {
  int v = 0;
  for (size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

double wall_of_mtime(int64_t mtime) {
  time_t t = static_cast<time_t>(mtime);
  struct tm local {};
  localtime_r(&t, &local);
  return static_cast<double>(timegm(&local));
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Calls `on_record` with every line that does not start with TAB (payload lines are skipped
// without being buffered). False with `error` on a read error.
bool for_each_record_line(const std::string& path,
                          const std::function<void(std::string_view)>& on_record,
                          std::string& error) {
  int fd = open_regular_file(path, error);
  if (fd < 0) return false;
  gzFile in = gzdopen(fd, "rb");
  if (!in) {
    ::close(fd);
    error = path + ": cannot open";
    return false;
  }
  gzbuffer(in, 256 * 1024);
  ReadBuffer chunk;
  std::string line;
  bool skipping = false;  // inside a payload line
  bool at_line_start = true;
  while (true) {
    int got = gzread(in, chunk.data(), chunk.capacity());
    if (got < 0) {
      int errnum = 0;
      error = path + ": read error: " + gzerror(in, &errnum);
      gzclose(in);
      return false;
    }
    if (got == 0) break;
    const char* p = chunk.data();
    const char* end = p + got;
    while (p < end) {
      if (at_line_start) {
        skipping = *p == '\t';
        at_line_start = false;
      }
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
      if (!skipping) line.append(p, nl ? nl : end);
      if (!nl) break;
      if (!skipping && !line.empty()) on_record(line);
      line.clear();
      at_line_start = true;
      p = nl + 1;
    }
    chunk.grow_after(got);  // after the bytes are used: growing moves them
  }
  if (!skipping && !line.empty()) on_record(line);
  gzclose(in);
  return true;
}

// Last line of `text` that carries a header time.
std::optional<double> last_header_time(std::string_view text, int64_t mtime) {
  size_t end = text.size();
  while (end > 0) {
    size_t start = text.rfind('\n', end - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line[0] != '\t') {
      if (auto t = header_wall_time(line, mtime)) return t;
    }
    if (start == 0) break;
    end = start - 1;
  }
  return std::nullopt;
}

// The file for reading, or nullptr for a FIFO, a device or a file that cannot be opened (its
// span then comes from its modification time).
std::FILE* open_regular(const std::string& path) {
  std::string ignored;
  int fd = open_regular_file(path, ignored);
  if (fd < 0) return nullptr;
  std::FILE* f = ::fdopen(fd, "rb");
  if (!f) ::close(fd);
  return f;
}

std::string read_range(std::FILE* f, int64_t offset, size_t len) {
  std::string buf(len, '\0');
  if (fseeko(f, offset, SEEK_SET) != 0) return {};
  buf.resize(std::fread(buf.data(), 1, len, f));
  return buf;
}

}  // namespace

std::optional<double> header_wall_time(std::string_view line, int64_t mtime) {
  // tlparse's header regex is unanchored ("[rank0]:V1206 ..." prefixes occur): look a little in.
  size_t limit = std::min<size_t>(line.size(), 64);
  for (size_t i = 0; i < limit; ++i) {
    if (std::string_view("VIWEC").find(line[i]) == std::string_view::npos) continue;
    std::string_view s = line.substr(i + 1);
    if (!(digits(s, 0, 4) && s.size() > 20 && s[4] == ' ' && digits(s, 5, 2) && s[7] == ':' &&
          digits(s, 8, 2) && s[10] == ':' && digits(s, 11, 2) && s[13] == '.' && digits(s, 14, 6)))
      continue;
    int month = num(s, 0, 2), day = num(s, 2, 2);
    if (month < 1 || month > 12 || day < 1 || day > 31) continue;
    time_t t = static_cast<time_t>(mtime);
    struct tm modified {};
    localtime_r(&t, &modified);
    int year = modified.tm_year;
    // A record is never written after the file's modification; a later date is last year's.
    if (month - 1 > modified.tm_mon || (month - 1 == modified.tm_mon && day > modified.tm_mday + 1))
      --year;
    struct tm tm {};
    tm.tm_year = year;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = num(s, 5, 2);
    tm.tm_min = num(s, 8, 2);
    tm.tm_sec = num(s, 11, 2);
    return static_cast<double>(timegm(&tm)) + num(s, 14, 6) / 1e6;
  }
  return std::nullopt;
}

std::string format_utc(double seconds, const char* format) {
  time_t t = static_cast<time_t>(seconds);
  struct tm tm {};
  gmtime_r(&t, &tm);
  char buf[64];
  if (std::strftime(buf, sizeof buf, format, &tm) == 0) return {};
  return buf;
}

std::string format_wall_time(double seconds) {
  return format_utc(seconds, "%Y-%m-%d %H:%M:%S");
}

TraceFile probe_trace_file(const std::string& path) {
  TraceFile f;
  f.path = path;
  f.rank = parser::rank_from_filename(path);
  f.gzip = ends_with(path, ".gz");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    f.bytes = static_cast<uint64_t>(st.st_size);
    f.mtime = st.st_mtime;
  }
  f.start = f.end = wall_of_mtime(f.mtime);
  std::optional<double> first, last;
  if (f.gzip) {
    std::string error;
    for_each_record_line(
        path,
        [&](std::string_view line) {
          if (auto t = header_wall_time(line, f.mtime)) {
            if (!first) first = t;
            last = t;
          }
        },
        error);
  } else if (std::FILE* in = open_regular(path)) {
    constexpr size_t kWindow = 64 * 1024;
    std::string head = read_range(in, 0, kWindow);
    size_t start = 0;
    while (start < head.size() && !first) {
      size_t nl = head.find('\n', start);
      std::string_view line = std::string_view(head).substr(
          start, nl == std::string::npos ? std::string::npos : nl - start);
      if (!line.empty() && line[0] != '\t') first = header_wall_time(line, f.mtime);
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    int64_t size = static_cast<int64_t>(f.bytes);
    std::string tail = size <= static_cast<int64_t>(kWindow)
                           ? head
                           : read_range(in, size - static_cast<int64_t>(kWindow), kWindow);
    last = last_header_time(tail, f.mtime);
    std::fclose(in);
  }
  if (first) {
    f.timed = true;
    f.start = *first;
    f.end = last ? std::max(*last, *first) : *first;
  }
  return f;
}

bool scan_trace_file(TraceFile& file, std::string& error) {
  int64_t records = 0, compiles = 0, failed = 0, breaks = 0;
  std::optional<double> first, last;
  bool ok = for_each_record_line(
      file.path,
      [&](std::string_view line) {
        auto time = header_wall_time(line, file.mtime);
        if (!time) return;  // not a record (tlparse's fail_glog)
        ++records;
        if (!first) first = time;
        last = time;
        size_t at = line.find("] {\"");
        if (at == std::string_view::npos) return;
        std::string_view key = line.substr(at + 4);
        if (key.substr(0, 20) == "compilation_metrics\"") {
          ++compiles;
          if (line.find("\"fail_type\": \"") != std::string_view::npos) ++failed;
        } else if (key.substr(0, 9) == "artifact\"" &&
                   key.find("\"name\": \"dynamo_graph_break_reason\"") != std::string_view::npos) {
          ++breaks;
        }
      },
      error);
  if (!ok) return false;
  file.records = records;
  file.compiles = compiles;
  file.failed_compiles = failed;
  file.graph_breaks = breaks;
  if (first) {
    file.timed = true;
    file.start = *first;
    file.end = std::max(*first, *last);
  }
  return true;
}

std::vector<TraceRun> group_runs(std::vector<TraceFile> files, const RunGrouping& grouping) {
  std::sort(files.begin(), files.end(), [](const TraceFile& a, const TraceFile& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.rank != b.rank) return a.rank < b.rank;
    return a.path < b.path;
  });
  std::vector<TraceRun> runs;
  std::optional<size_t> open_run;  // the latest run of ranked files, the only one a file may join
  // The open run's ranks as a set: a search of its rank list per file was quadratic in the file
  // count (one run of 100,000 ranks).
  std::unordered_set<int64_t> open_ranks;
  for (TraceFile& f : files) {
    bool joins = false;
    if (f.rank && open_run) {
      TraceRun& run = runs[*open_run];
      joins = !open_ranks.count(*f.rank) && f.start <= run.end + grouping.gap_seconds;
    }
    if (!joins) {
      runs.emplace_back();
      runs.back().start = f.start;
      runs.back().end = f.end;
      if (f.rank) {
        open_run = runs.size() - 1;
        open_ranks.clear();
      }
    }
    if (f.rank && open_run && (joins || *open_run == runs.size() - 1)) open_ranks.insert(*f.rank);
    TraceRun& run = joins ? runs[*open_run] : runs.back();
    run.end = std::max(run.end, f.end);
    run.start = std::min(run.start, f.start);
    run.bytes += f.bytes;
    if (f.rank) run.ranks.push_back(*f.rank);
    run.files.push_back(std::move(f));
  }
  for (TraceRun& run : runs) {
    std::sort(run.ranks.begin(), run.ranks.end());
    std::sort(run.files.begin(), run.files.end(), [](const TraceFile& a, const TraceFile& b) {
      if (a.rank.has_value() != b.rank.has_value()) return a.rank.has_value();
      if (a.rank != b.rank) return a.rank < b.rank;
      return a.path < b.path;
    });
  }
  std::stable_sort(runs.begin(), runs.end(),
                   [](const TraceRun& a, const TraceRun& b) { return a.start > b.start; });
  return runs;
}

void total_scans(TraceRun& run) {
  run.scanned = !run.files.empty();
  run.records = run.compiles = run.failed_compiles = run.graph_breaks = 0;
  for (const TraceFile& f : run.files) {
    if (f.records < 0) {
      run.scanned = false;
      continue;
    }
    run.records += f.records;
    run.compiles += f.compiles;
    run.failed_compiles += f.failed_compiles;
    run.graph_breaks += f.graph_breaks;
  }
}

}  // namespace tlscope::exporters::rage
