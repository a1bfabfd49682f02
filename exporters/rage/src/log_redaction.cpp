// Streaming redaction of one log. The has_payload MD5 sits in the header line, before the payload
// it covers, so the header is written with the old digest and, when the payload changed, the 32 hex
// digits are overwritten in place (pwrite) once the payload has been read: memory stays bounded by
// the longest line, never by the payload or the file.
#include "tlscope/exporters/rage/log_redaction.hpp"

#include "tlscope/exporters/rage/regular_file.hpp"

#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "read_buffer.hpp"
#include "tlscope/parser/glog.hpp"
#include "tlscope/parser/md5.hpp"

namespace tlscope::exporters::rage {
namespace {

constexpr std::string_view kHasPayload = "\"has_payload\": \"";

bool is_hex32(std::string_view s, size_t at) {
  if (s.size() < at + 33 || s[at + 32] != '"') return false;
  for (size_t i = at; i < at + 32; ++i) {
    char c = s[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// The payload record being copied: digests of the original and the redacted text. Until the
// first changed line both texts are the same, so one digest serves; at that line it is copied and
// the two go on separately (most payloads never change: MD5 runs once over them, not twice).
struct OpenPayload {
  bool open = false;
  bool changed = false;
  bool first_line = true;
  uint64_t md5_offset = 0;  // where the 32 hex digits are in the output
  std::string claimed;
  parser::Md5 original, redacted;  // `redacted` is used only once `changed`
};

class LogCopy {
 public:
  LogCopy(Redactor& redactor, LogRedaction& result, size_t max_locations)
      : redactor_(redactor), result_(result), max_locations_(max_locations) {}

  bool open(const std::string& in_path, const std::string& out_path) {
    in_path_ = in_path;
    out_path_ = out_path;
    std::string error;
    int fd = open_regular_file(in_path, error);
    if (fd < 0) {
      result_.error = error;
      return false;
    }
    in_ = gzdopen(fd, "rb");
    if (!in_) {
      ::close(fd);
      return fail(in_path, "cannot open");
    }
    gzbuffer(in_, 256 * 1024);
    out_ = std::fopen(out_path.c_str(), "wb");
    if (!out_) return fail(out_path, std::strerror(errno));
    std::setvbuf(out_, nullptr, _IOFBF, 1 << 20);
    return true;
  }

  ~LogCopy() {
    if (in_) gzclose(in_);
    if (out_) std::fclose(out_);
  }

  bool run(const std::function<void(uint64_t)>& progress) {
    ReadBuffer chunk;
    std::string line;
    uint64_t next_progress = 4 << 20;
    while (true) {
      int got = gzread(in_, chunk.data(), chunk.capacity());
      if (got < 0) {
        int errnum = 0;
        const char* msg = gzerror(in_, &errnum);
        return fail(in_path_, std::string("read error after ") + std::to_string(result_.bytes_in) +
                                  " bytes: " + msg);
      }
      if (got == 0) break;
      result_.bytes_in += got;
      const char* p = chunk.data();
      const char* end = p + got;
      while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
        if (!nl) {
          line.append(p, end);
          break;
        }
        line.append(p, nl);
        if (!copy_line(line, true)) return false;
        line.clear();
        p = nl + 1;
      }
      if (progress && result_.bytes_in >= next_progress) {
        progress(result_.bytes_in);
        next_progress = result_.bytes_in + (4 << 20);
      }
      chunk.grow_after(got);  // after the bytes are used: growing moves them
    }
    if (!line.empty() && !copy_line(line, false)) return false;
    if (!finish_payload()) return false;
    if (std::fclose(out_) != 0) {
      out_ = nullptr;
      return fail(out_path_, std::strerror(errno));
    }
    out_ = nullptr;
    return true;
  }

 private:
  bool fail(const std::string& path, const std::string& message) {
    result_.error = path + ": " + message;
    return false;
  }

  bool emit(std::string_view text) {
    if (std::fwrite(text.data(), 1, text.size(), out_) != text.size())
      return fail(out_path_, std::strerror(errno));
    result_.bytes_out += text.size();
    return true;
  }

  void note(const RedactionCounts& before) {
    ++result_.redacted_lines;
    if (result_.locations.size() >= max_locations_) return;
    std::string where = "line " + std::to_string(result_.lines) + ":";
    const char* sep = " ";
    for (size_t k = 0; k < before.by_kind.size(); ++k) {
      if (result_.counts.by_kind[k] == before.by_kind[k]) continue;
      where += sep;
      where += to_string(static_cast<SecretKind>(k));
      sep = ", ";
    }
    result_.locations.push_back(std::move(where));
  }

  bool copy_line(std::string& line, bool newline) {
    ++result_.lines;
    RedactionCounts before = result_.counts;
    if (!line.empty() && line[0] == '\t') {
      // Payload line: the MD5 covers the text after the TAB, lines joined by '\n'.
      text_.assign(line, 1);
      parser::Md5 before_line;  // the digest before this line, while both texts are the same
      if (payload_.open) {
        if (!payload_.changed) before_line = payload_.original;
        if (!payload_.first_line) payload_.original.update("\n", 1);
        payload_.original.update(text_);
      }
      bool changed = redactor_.redact_line(text_, result_.counts);
      if (payload_.open) {
        if (changed && !payload_.changed) {
          payload_.redacted = before_line;
          payload_.changed = true;
        }
        if (payload_.changed) {
          if (!payload_.first_line) payload_.redacted.update("\n", 1);
          payload_.redacted.update(text_);
        }
        payload_.first_line = false;
      }
      if (changed) note(before);
      return emit("\t") && emit(text_) && (!newline || emit("\n"));
    }
    if (!line.empty()) {
      // Any other non-blank line ends the previous record (tlparse drops blank lines anywhere).
      if (!finish_payload()) return false;
      std::optional<parser::GlogLine> glog = parser::parse_glog_header(line);
      if (glog) {
        stray_ = false;
        redactor_.end_block();
        if (redactor_.redact_record(line, glog->envelope_offset, result_.counts)) note(before);
        redactor_.end_block();  // a key block cannot run from a header into the next lines
      } else {
        // A line that is no record (a stray print, a key pasted into the log) is plain text, and
        // a key block it opens runs on over the stray lines after it, up to the next record.
        if (!stray_) redactor_.end_block();
        stray_ = true;
        if (redactor_.redact_line(line, result_.counts)) note(before);
      }
      size_t at = line.find(kHasPayload);
      if (at != std::string::npos && is_hex32(line, at + kHasPayload.size())) {
        payload_ = OpenPayload{};
        payload_.open = true;
        payload_.md5_offset = result_.bytes_out + at + kHasPayload.size();
        payload_.claimed = line.substr(at + kHasPayload.size(), 32);
      }
    }
    return emit(line) && (!newline || emit("\n"));
  }

  bool finish_payload() {
    if (!payload_.open) return true;
    payload_.open = false;
    redactor_.end_block();
    if (!payload_.changed) return true;
    std::string original = parser::Md5::hex(payload_.original.finish());
    if (original != payload_.claimed) {
      ++result_.payloads_unverified;
      return true;
    }
    std::string fresh = parser::Md5::hex(payload_.redacted.finish());
    if (std::fflush(out_) != 0) return fail(out_path_, std::strerror(errno));
    if (::pwrite(fileno(out_), fresh.data(), fresh.size(),
                 static_cast<off_t>(payload_.md5_offset)) != static_cast<ssize_t>(fresh.size()))
      return fail(out_path_, std::strerror(errno));
    ++result_.payloads_rehashed;
    return true;
  }

  Redactor& redactor_;
  LogRedaction& result_;
  size_t max_locations_;
  std::string in_path_, out_path_;
  gzFile in_ = nullptr;
  std::FILE* out_ = nullptr;
  OpenPayload payload_;
  bool stray_ = false;  // the last non-payload line was no record
  std::string text_;    // the current payload line without its TAB (reused: no allocation per line)
};

}  // namespace

LogRedaction redact_log(const std::string& in_path, const std::string& out_path, Redactor& redactor,
                        size_t max_locations, const std::function<void(uint64_t)>& progress) {
  LogRedaction result;
  redactor.end_block();
  LogCopy copy(redactor, result, max_locations);
  result.ok = copy.open(in_path, out_path) && copy.run(progress);
  return result;
}

}  // namespace tlscope::exporters::rage
