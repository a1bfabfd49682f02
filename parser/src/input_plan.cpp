// Expanding command-line paths into sources, and ranks from PyTorch's trace file names.
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "tlscope/parser/reader.hpp"

namespace tlscope::parser {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kTracePrefix = "dedicated_log_torch_trace";
constexpr std::string_view kRankPrefix = "dedicated_log_torch_trace_rank_";

std::string_view basename(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_trace_log_name(std::string_view name) {
  return name.substr(0, kTracePrefix.size()) == kTracePrefix &&
         (ends_with(name, ".log") || ends_with(name, ".log.gz"));
}

// What a path that is neither a directory nor a regular file is, for the message refusing it.
// Reading one would block forever (a FIFO with no writer) or never end (/dev/zero).
const char* file_type_words(fs::file_type type) {
  switch (type) {
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "a special file";
  }
}

std::string not_regular_problem(const std::string& path, fs::file_type type) {
  return path + ": " + file_type_words(type) + ", not a regular file: not read";
}

SourceInfo make_source(const std::string& path) {
  SourceInfo s;
  s.path = path;
  s.rank = rank_from_filename(path);
  s.gzip = ends_with(path, ".gz");
  return s;
}

}  // namespace

std::string_view to_string(ErrorKind kind) {
  for (const IngestErrorKind& k : kIngestErrorKinds)
    if (k.id == kind) return k.name;
  return "unknown";
}

std::optional<int64_t> rank_from_filename(std::string_view path) {
  std::string_view name = basename(path);
  if (name.substr(0, kRankPrefix.size()) != kRankPrefix) return std::nullopt;
  std::string_view rest = name.substr(kRankPrefix.size());
  size_t digits = 0;
  int64_t rank = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
    if (digits == 18) return std::nullopt;  // not a rank any machine has
    rank = rank * 10 + (rest[digits] - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  // The number must end at the random suffix ("_6u3fubwl") or at the extension (".log").
  std::string_view after = rest.substr(digits);
  if (after.empty() || after[0] == '_' || after.substr(0, 4) == ".log") return rank;
  return std::nullopt;
}

std::string resolved_path(const std::string& path) {
  if (path.empty()) return path;
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    std::string r = real;
    std::free(real);
    return r;
  }
  // Not there (yet): resolve the folder it would be in, keep the last name.
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  fs::path p(trimmed);
  fs::path name = p.filename();
  if (name.empty() || name == "." || name == ".." || !p.has_parent_path()) {
    std::error_code ec;
    fs::path absolute = fs::absolute(p, ec);
    return ec || name.empty() || name == "." || name == ".." ? path : absolute.string();
  }
  std::string dir = resolved_path(p.parent_path().string());
  if (dir.empty() || dir[0] != '/') return path;
  return (fs::path(dir) / name).string();
}

InputPlan plan_inputs(const std::vector<std::string>& paths) {
  InputPlan plan;
  for (const std::string& path : paths) {
    if (path == "-") {
      plan.sources.push_back(make_source(path));
      continue;
    }
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      plan.problems.push_back(path + ": no such file or directory");
      continue;
    }
    if (!fs::is_directory(status)) {
      if (fs::is_regular_file(status))
        plan.sources.push_back(make_source(resolved_path(path)));
      else
        plan.problems.push_back(not_regular_problem(path, status.type()));
      continue;
    }
    std::vector<SourceInfo> found;
    fs::directory_iterator it(resolved_path(path), ec), end;
    if (ec) {
      plan.problems.push_back(path + ": cannot list directory: " + ec.message());
      continue;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) break;
      std::string entry = it->path().string();
      std::string name = it->path().filename().string();
      if (!is_trace_log_name(name)) {
        plan.skipped.push_back(entry);
        continue;
      }
      // Follows symlinks, so a link to /dev/zero is seen for what it points at. A status that
      // cannot be read (a dangling link, a loop) leaves the file in: opening it names the error.
      // The entry's type comes from the directory listing where it says (d_type), so a plain
      // file costs no stat here: 100,000 rank files were 100,000 stats per plan (issue 27).
      std::error_code status_ec;
      const bool regular = it->is_regular_file(status_ec);
      if (status_ec || regular) {
        found.push_back(make_source(entry));
      } else if (it->is_directory(status_ec)) {
        plan.skipped.push_back(entry);
      } else {
        plan.unreadable.push_back(not_regular_problem(entry, it->status(status_ec).type()));
      }
    }
    if (ec) plan.problems.push_back(path + ": cannot list directory: " + ec.message());
    if (found.empty()) {
      plan.problems.push_back(path + ": directory holds no dedicated_log_torch_trace*.log files");
      continue;
    }
    // Ranked files in rank order, then files without a rank, each group by name.
    std::sort(found.begin(), found.end(), [](const SourceInfo& a, const SourceInfo& b) {
      if (a.rank.has_value() != b.rank.has_value()) return a.rank.has_value();
      if (a.rank != b.rank) return *a.rank < *b.rank;
      return a.path < b.path;
    });
    plan.sources.insert(plan.sources.end(), found.begin(), found.end());
  }
  std::sort(plan.skipped.begin(), plan.skipped.end());
  for (size_t i = 0; i < plan.sources.size(); ++i) {
    plan.sources[i].source_id = static_cast<uint32_t>(i);
  }
  return plan;
}

}  // namespace tlscope::parser
