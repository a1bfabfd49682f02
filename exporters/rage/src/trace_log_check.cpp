// Whether a file reads as a TORCH_TRACE log (see trace_runs.hpp, reads_as_trace_log). A bundle
// carries logs only: a file a recorded command named or read that is anything else (a key, a
// netrc, /etc/shadow, /proc/self/environ) must never be packed because a command line named it.
#include <unistd.h>
#include <zlib.h>

#include <string>

#include "tlscope/exporters/rage/regular_file.hpp"
#include "tlscope/exporters/rage/trace_runs.hpp"
#include "tlscope/parser/glog.hpp"

namespace tlscope::exporters::rage {

std::string trace_log_problem(const std::string& path) {
  std::string error;
  int fd = open_regular_file(path, error);  // no FIFO, device or directory
  if (fd < 0) return error;
  gzFile in = gzdopen(fd, "rb");  // a plain file reads through unchanged
  if (!in) {
    ::close(fd);
    return path + ": cannot open";
  }
  // The head is enough: a log starts with records. 64 KiB holds several of them unless a payload
  // is larger, and the first record's header line comes before its payload anyway.
  constexpr unsigned kHead = 64 * 1024;
  std::string head(kHead, '\0');
  int got = gzread(in, head.data(), kHead);
  gzclose(in);
  if (got <= 0) return path + ": empty or unreadable, not a TORCH_TRACE log";
  head.resize(static_cast<size_t>(got));
  // Every record line in the head (a line that is not a TAB-led payload line; the last one may be
  // cut) must be a glog header followed by a JSON object, and there must be one.
  int records = 0;
  size_t start = 0, line_no = 0;
  while (start < head.size()) {
    ++line_no;
    size_t nl = head.find('\n', start);
    if (nl == std::string::npos && records > 0) break;  // cut by the head's end
    std::string_view line = std::string_view(head).substr(
        start, nl == std::string::npos ? std::string::npos : nl - start);
    start = nl == std::string::npos ? head.size() : nl + 1;
    if (line.empty() || line[0] == '\t') {
      if (!line.empty() && records == 0) break;  // a payload before any record
      continue;
    }
    auto glog = parser::parse_glog_header(line);
    if (!glog || glog->envelope_offset >= line.size() || line[glog->envelope_offset] != '{')
      return path + ":" + std::to_string(line_no) +
             ": not a TORCH_TRACE record (glog header and JSON), so it is not a log";
    ++records;
  }
  if (records == 0) return path + ": no TORCH_TRACE record at its start, so it is not a log";
  return {};
}

}  // namespace tlscope::exporters::rage
