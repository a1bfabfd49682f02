// Record assembly. A record is a header line and the TAB lines after it; blank lines are dropped
// wherever they are, even inside a payload, exactly as tlparse does (so a payload line that lost
// its TAB shows up as an MD5 mismatch rather than silently changing the payload). Every line is
// put in exactly one LineAccounting bucket.
#include "chunk_parser.hpp"

#include <simdjson.h>

#include <array>
#include <cstring>
#include <vector>

#include "tlscope/parser/glog.hpp"
#include "tlscope/parser/md5.hpp"

namespace tlscope::parser {
namespace {

constexpr size_t kExcerptBytes = 160;

bool is_blank(const char* p, const char* end) {
  for (; p < end; ++p) {
    if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\v' && *p != '\f') return false;
  }
  return true;
}

// NUL and other control bytes (TAB aside) never occur in a text header line.
bool has_control_bytes(const char* p, const char* end) {
  for (; p < end; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if ((c < 0x20 && c != '\t') || c == 0x7f) return true;
  }
  return false;
}

bool hex_equal(std::string_view claimed, const std::string& actual) {
  if (claimed.size() != actual.size()) return false;
  for (size_t i = 0; i < claimed.size(); ++i) {
    char c = claimed[i];
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    if (c != actual[i]) return false;
  }
  return true;
}

// The state of one chunk walk.
class Walk {
 public:
  Walk(Chunk& chunk, uint64_t max_record_bytes, EnvelopeReader& envelope, std::string& why)
      : buf_(chunk.bytes.data()),
        size_(chunk.bytes.size()),
        is_last_(chunk.is_last),
        max_record_bytes_(max_record_bytes),
        out_(chunk.result),
        envelope_(envelope),
        why_(why) {}

  void run() {
    // One pass over the whole chunk is much cheaper than a call per payload; payloads are only
    // checked one by one when the chunk holds some non-UTF-8 bytes.
    chunk_is_utf8_ = simdjson::validate_utf8(buf_, size_);
    size_t pos = 0;
    uint64_t line = 0;
    while (pos < size_) {
      const char* nl = static_cast<const char*>(std::memchr(buf_ + pos, '\n', size_ - pos));
      size_t next = nl ? static_cast<size_t>(nl - buf_) + 1 : size_;
      size_t content_end = nl ? next - 1 : size_;
      if (content_end > pos && buf_[content_end - 1] == '\r') --content_end;  // CRLF logs
      unterminated_ = nl == nullptr;
      out_.lines.total_lines++;
      on_line(line, pos, content_end, next);
      pos = next;
      ++line;
    }
    out_.ends_in_open_run = open_ == Open::kError && mergeable_;
    close_record(/*at_input_end=*/is_last_);
    check_payloads();
    for (const ChunkError& e : out_.errors) out_.lines.error_lines += e.line_count;
  }

 private:
  enum class Open : uint8_t { kNone, kEvent, kError, kOrphan };

  // What the deferred payload check needs to know about an emitted event.
  struct PayloadCheck {
    bool at_input_end;
    bool last_line_unterminated;
    uint32_t blank_in_payload;
    size_t excerpt_len;
  };

  void on_line(uint64_t line, size_t begin, size_t end, size_t next) {
    if (begin < end && buf_[begin] == '\t') {
      on_payload_line(line, begin, end, next);
    } else if (is_blank(buf_ + begin, buf_ + end)) {
      out_.lines.blank_lines++;
      if (open_ == Open::kEvent && event_.payload_lines > 0) ++pending_blank_;
    } else {
      // A head line ends an open event; an open error run stays open, so that on_head_line
      // can extend it with another bad line.
      if (open_ == Open::kEvent) emit_event(false);
      on_head_line(line, begin, end, next);
    }
  }

  void on_payload_line(uint64_t line, size_t begin, size_t end, size_t next) {
    switch (open_) {
      case Open::kEvent:
        if (event_.has_payload) {
          // Join in place: the joined text is never longer than the raw lines, so it can be
          // written over them from the first payload line onwards.
          if (event_.payload_lines == 0) {
            payload_begin_ = payload_write_ = begin;
          } else {
            buf_[payload_write_++] = '\n';
          }
          size_t len = end - begin - 1;
          std::memmove(buf_ + payload_write_, buf_ + begin + 1, len);
          payload_write_ += len;
          event_.payload_lines++;
          blank_in_payload_ += pending_blank_;  // only blanks between payload lines count
          pending_blank_ = 0;
          record_end_ = next;
          last_line_unterminated_ = unterminated_;
          return;
        }
        emit_event(false);
        open_error(ErrorKind::kOrphanPayload, line, begin, end,
                   "payload line after an envelope without has_payload");
        open_ = Open::kOrphan;
        return;
      case Open::kError:
      case Open::kOrphan:
        out_.errors[open_error_index_].line_count++;
        return;
      case Open::kNone:
        open_error(ErrorKind::kOrphanPayload, line, begin, end,
                   "payload line with no envelope before it");
        open_ = Open::kOrphan;
        return;
    }
  }

  void on_head_line(uint64_t line, size_t begin, size_t end, size_t next) {
    std::string_view text(buf_ + begin, end - begin);
    auto glog = parse_glog_header(text);
    if (!glog) {
      bool binary = has_control_bytes(buf_ + begin, buf_ + end);
      ErrorKind kind = binary ? ErrorKind::kBinary : ErrorKind::kBadHeader;
      if (unterminated_) kind = ErrorKind::kTruncated;
      // A run of bad lines (junk, a pasted traceback) is one row, not one row per line.
      if (open_ == Open::kError && mergeable_ && out_.errors[open_error_index_].kind == kind) {
        out_.errors[open_error_index_].line_count++;
        return;
      }
      const char* msg = binary ? "binary data (control bytes) where a glog header line belongs"
                               : "not a glog trace header line";
      if (unterminated_) msg = "last line is cut short (no newline) and is not a glog header";
      open_error(kind, line, begin, end, msg);
      out_.errors.back().mergeable = true;
      open_ = Open::kError;
      mergeable_ = true;
      return;
    }
    EnvelopeFields fields;
    std::string_view json = text.substr(glog->envelope_offset);
    EnvelopeStatus status = envelope_.read(json, fields, why_);
    if (status != EnvelopeStatus::kOk) {
      ErrorKind kind =
          status == EnvelopeStatus::kInvalidUtf8 ? ErrorKind::kInvalidUtf8 : ErrorKind::kBadJson;
      if (has_control_bytes(json.data(), json.data() + json.size())) kind = ErrorKind::kBinary;
      std::string msg = why_;
      if (unterminated_) {
        kind = ErrorKind::kTruncated;
        msg = "last line is cut short (no newline): " + why_;
      }
      open_error(kind, line, begin, end, std::move(msg));
      open_ = Open::kError;
      mergeable_ = false;
      return;
    }
    event_ = Event{};
    event_.line = line;
    event_.byte_offset = begin;
    event_.header = glog->header;
    event_.kind = fields.kind;
    event_.metadata = fields.metadata;
    event_.envelope = json;
    event_.rank = fields.rank;
    event_.context = fields.context;
    event_.stack = fields.stack;
    event_.subgraph_name = fields.subgraph_name;
    event_.has_payload = fields.has_payload;
    event_.payload_md5 = fields.payload_md5;
    record_begin_ = begin;
    record_end_ = next;
    payload_begin_ = payload_write_ = next;
    last_line_unterminated_ = unterminated_;
    blank_in_payload_ = pending_blank_ = 0;
    open_ = Open::kEvent;
  }

  void close_record(bool at_input_end) {
    if (open_ == Open::kEvent) emit_event(at_input_end);
    open_ = Open::kNone;
  }

  void emit_event(bool at_input_end) {
    open_ = Open::kNone;
    uint64_t record_bytes = record_end_ - record_begin_;
    if (record_bytes > max_record_bytes_) {
      add_error(ErrorKind::kTooLarge, event_.line, record_begin_, 1 + event_.payload_lines,
                "record of " + std::to_string(record_bytes) + " bytes exceeds the limit of " +
                    std::to_string(max_record_bytes_) + " bytes; skipped",
                record_begin_, line_length(record_begin_));
      return;
    }
    if (event_.has_payload) {
      event_.payload = std::string_view(buf_ + payload_begin_, payload_write_ - payload_begin_);
    }
    out_.events.push_back(event_);
    out_.order_is_error.push_back(false);
    out_.lines.envelope_lines++;
    out_.lines.payload_lines += event_.payload_lines;
    // The MD5 and UTF-8 checks run after the walk, over all payloads of the chunk at once.
    checks_.push_back(PayloadCheck{at_input_end, last_line_unterminated_, blank_in_payload_,
                                   line_length(record_begin_)});
  }

  // MD5 of every payload (several at a time), then the problem rows go right after their event.
  void check_payloads() {
    std::vector<std::string_view> payloads;
    std::vector<size_t> owners;
    for (size_t i = 0; i < out_.events.size(); ++i) {
      if (!out_.events[i].has_payload) continue;
      payloads.push_back(out_.events[i].payload);
      owners.push_back(i);
    }
    if (payloads.empty()) return;
    std::vector<std::array<uint8_t, 16>> digests(payloads.size());
    md5_many(payloads.data(), payloads.size(), digests.data());

    std::vector<ChunkError> errors;
    std::vector<bool> order;
    errors.reserve(out_.errors.size());
    order.reserve(out_.order_is_error.size());
    size_t next_error = 0, next_event = 0, next_digest = 0;
    for (bool is_error : out_.order_is_error) {
      order.push_back(is_error);
      if (is_error) {
        errors.push_back(std::move(out_.errors[next_error++]));
        continue;
      }
      size_t i = next_event++;
      Event& ev = out_.events[i];
      if (!ev.has_payload) continue;
      const PayloadCheck& check = checks_[i];
      std::string actual = Md5::hex(digests[next_digest++]);
      for (ChunkError& e : payload_problems(ev, check, actual)) {
        errors.push_back(std::move(e));
        order.push_back(true);
      }
    }
    out_.errors = std::move(errors);
    out_.order_is_error = std::move(order);
  }

  std::vector<ChunkError> payload_problems(Event& ev, const PayloadCheck& check,
                                           const std::string& actual) {
    std::vector<ChunkError> problems;
    auto add = [&](ErrorKind kind, std::string message) {
      ChunkError e;
      e.kind = kind;
      e.line = ev.line;
      e.byte_offset = ev.byte_offset;
      e.line_count = 0;  // the lines are counted with the event
      e.message = std::move(message);
      e.excerpt_begin = ev.byte_offset;
      e.excerpt_len = check.excerpt_len;
      problems.push_back(std::move(e));
    };
    if (hex_equal(ev.payload_md5, actual)) {
      ev.md5 = Md5Status::kOk;
    } else {
      ev.md5 = Md5Status::kMismatch;
      ErrorKind kind = ErrorKind::kMd5Mismatch;
      std::string problem = "payload MD5 " + actual + " does not match has_payload " +
                            std::string(ev.payload_md5.substr(0, 64)) + " (" +
                            std::to_string(ev.payload_lines) + " payload lines)";
      if (ev.payload_lines == 0) problem += "; no payload lines follow the envelope";
      if (check.blank_in_payload > 0) {
        // The likeliest cause: a payload line that lost its TAB (an edited file).
        problem += "; " + std::to_string(check.blank_in_payload) +
                   " blank lines inside the payload were dropped, as tlparse drops them";
      } else if (check.at_input_end) {
        problem += "; this is the last record of the input";
        // A final line without newline is normal when the record checks out (tlparse's own
        // fixtures end that way); with a failed MD5 it means the input was cut short.
        if (check.last_line_unterminated) {
          kind = ErrorKind::kTruncated;
          problem = "input ends inside this record (last line has no newline): " + problem;
        }
      }
      add(kind, std::move(problem));
    }
    if (!chunk_is_utf8_ && !simdjson::validate_utf8(ev.payload.data(), ev.payload.size())) {
      add(ErrorKind::kInvalidUtf8, "payload contains bytes that are not UTF-8 (kept as read)");
    }
    return problems;
  }

  size_t line_length(size_t begin) const {
    size_t limit = std::min(size_ - begin, kExcerptBytes);
    const void* nl = std::memchr(buf_ + begin, '\n', limit);
    return nl ? static_cast<size_t>(static_cast<const char*>(nl) - (buf_ + begin)) : limit;
  }

  void open_error(ErrorKind kind, uint64_t line, size_t begin, size_t end, std::string message) {
    open_error_index_ = out_.errors.size();
    add_error(kind, line, begin, 1, std::move(message), begin,
              std::min(end - begin, kExcerptBytes));
  }

  void add_error(ErrorKind kind, uint64_t line, size_t offset, uint64_t line_count,
                 std::string message, size_t excerpt_begin, size_t excerpt_len) {
    ChunkError e;
    e.kind = kind;
    e.line = line;
    e.byte_offset = offset;
    e.line_count = line_count;
    e.message = std::move(message);
    e.excerpt_begin = excerpt_begin;
    e.excerpt_len = excerpt_len;
    out_.errors.push_back(std::move(e));
    out_.order_is_error.push_back(true);
  }

  char* buf_;
  size_t size_;
  bool is_last_;
  uint64_t max_record_bytes_;
  ChunkResult& out_;
  EnvelopeReader& envelope_;
  std::string& why_;

  Open open_ = Open::kNone;
  bool mergeable_ = false;
  bool unterminated_ = false;
  size_t open_error_index_ = 0;
  Event event_;
  size_t record_begin_ = 0, record_end_ = 0;
  size_t payload_begin_ = 0, payload_write_ = 0;
  bool last_line_unterminated_ = false;
  uint32_t blank_in_payload_ = 0, pending_blank_ = 0;
  std::vector<PayloadCheck> checks_;  // one per emitted event
  bool chunk_is_utf8_ = true;
};

}  // namespace

void ChunkParser::parse(Chunk& chunk, uint64_t max_record_bytes) {
  chunk.result.clear();
  if (chunk.skipped) {
    ChunkResult& r = chunk.result;
    r.lines.total_lines = r.lines.error_lines = chunk.skipped_lines;
    ChunkError e;
    e.kind = ErrorKind::kTooLarge;
    e.line_count = chunk.skipped_lines;
    e.message = "record of more than " + std::to_string(max_record_bytes) +
                " bytes (the limit); streamed past " + std::to_string(chunk.skipped_bytes) +
                " bytes without keeping them";
    r.errors.push_back(std::move(e));
    r.order_is_error.push_back(true);
    return;
  }
  Walk(chunk, max_record_bytes, envelope_, why_).run();
}

}  // namespace tlscope::parser
