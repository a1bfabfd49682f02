// Hand-written matcher for the glog header; tried at each level letter like an unanchored regex.
#include <cstring>

#include "tlscope/parser/glog.hpp"

namespace tlscope::parser {
namespace {

inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Reads exactly `n` digits at `p`.
inline bool fixed_digits(const char* p, int n, uint32_t& out) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) {
    if (!is_digit(p[i])) return false;
    v = v * 10 + static_cast<uint32_t>(p[i] - '0');
  }
  out = v;
  return true;
}

// The value of the digits in [p, end); false when it exceeds `max`. An out-of-range pid or line
// number makes the line no header at all (a bad_header row), never a wrapped or clamped number.
inline bool digits_value(const char* p, const char* end, uint64_t max, uint64_t& out) {
  uint64_t v = 0;
  for (; p < end; ++p) {
    uint64_t digit = static_cast<uint64_t>(*p - '0');
    if (v > (max - digit) / 10) return false;
    v = v * 10 + digit;
  }
  out = v;
  return true;
}

// Tries the whole pattern with the level letter at `s`.
bool match_at(const char* s, const char* end, GlogLine& out, const char* line_begin) {
  // Fixed-width part: "L" MMDD " " HH ":" MM ":" SS "." uuuuuu " " = 23 bytes.
  if (end - s < 23) return false;
  uint32_t mm, dd, hh, mi, ss, us;
  if (!fixed_digits(s + 1, 2, mm) || !fixed_digits(s + 3, 2, dd) || s[5] != ' ' ||
      !fixed_digits(s + 6, 2, hh) || s[8] != ':' || !fixed_digits(s + 9, 2, mi) || s[11] != ':' ||
      !fixed_digits(s + 12, 2, ss) || !fixed_digits(s + 15, 6, us) || s[21] != ' ') {
    return false;  // s[14] is the regex's unescaped '.', which matches any byte
  }
  const char* p = s + 22;
  const char* pid_begin = p;
  while (p < end && is_digit(*p)) ++p;
  if (p == pid_begin) return false;
  const char* pid_end = p;
  // ([^:]+) must take at least one byte; if the digits run straight into ':', the regex
  // backtracks and gives the last digit to the pathname.
  if (p < end && *p == ':') {
    if (pid_end - pid_begin < 2) return false;
    --pid_end;
  }
  const char* path_begin = pid_end;
  const char* colon = static_cast<const char*>(std::memchr(path_begin, ':', end - path_begin));
  if (colon == nullptr) return false;
  p = colon + 1;
  const char* lineno_begin = p;
  while (p < end && is_digit(*p)) ++p;
  if (p == lineno_begin) return false;
  // "] " and at least one more byte.
  if (end - p < 3 || p[0] != ']' || p[1] != ' ') return false;
  // The store keeps the thread id as a signed 64-bit integer and the line number as 32 bits.
  uint64_t thread = 0, lineno = 0;
  if (!digits_value(pid_begin, pid_end, INT64_MAX, thread) ||
      !digits_value(lineno_begin, p, UINT32_MAX, lineno)) {
    return false;
  }

  GlogHeader& h = out.header;
  h.level = s[0];
  h.month = static_cast<uint8_t>(mm);
  h.day = static_cast<uint8_t>(dd);
  h.hour = static_cast<uint8_t>(hh);
  h.minute = static_cast<uint8_t>(mi);
  h.second = static_cast<uint8_t>(ss);
  h.microsecond = us;
  h.thread = thread;
  const char* path = path_begin;
  if (path < colon - 1 && *path == ' ') ++path;
  h.pathname = std::string_view(path, static_cast<size_t>(colon - path));
  h.lineno = static_cast<uint32_t>(lineno);
  out.envelope_offset = static_cast<size_t>(p + 2 - line_begin);
  return true;
}

inline bool is_level(char c) {
  return c == 'V' || c == 'I' || c == 'W' || c == 'E' || c == 'C';
}

}  // namespace

std::optional<GlogLine> parse_glog_header(std::string_view line) {
  const char* begin = line.data();
  const char* end = begin + line.size();
  GlogLine out;
  for (const char* s = begin; end - s >= 23; ++s) {
    if (is_level(*s) && match_at(s, end, out, begin)) return out;
  }
  return std::nullopt;
}

}  // namespace tlscope::parser
