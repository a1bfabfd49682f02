// Escaping control characters and invalid UTF-8 for terminal output (see terminal_text.hpp).
#include "terminal_text.hpp"

#include <cstdint>
#include <cstdio>

namespace tlscope::cli {
namespace {

void append_hex_byte(std::string& out, unsigned char byte) {
  char buf[5];
  std::snprintf(buf, sizeof buf, "\\x%02x", byte);
  out += buf;
}

void append_code_point(std::string& out, uint32_t cp) {
  char buf[7];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  out += buf;
}

// Code points a terminal acts on rather than shows: C1 controls (U+009B is CSI), the line and
// paragraph separators, and the bidirectional overrides and isolates that reorder what follows.
bool is_control_code_point(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
         cp == 0x200F || cp == 0x061C;
}

// Length of the well-formed UTF-8 sequence at `s` (RFC 3629: no overlongs, no surrogates, at
// most U+10FFFF) and its code point; 0 when the bytes there are not one.
size_t utf8_sequence(std::string_view s, size_t i, uint32_t& cp) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  auto cont = [&](size_t k) { return k < s.size() && (byte(k) & 0xC0) == 0x80; };
  unsigned char b = byte(i);
  if (b >= 0xC2 && b <= 0xDF && cont(i + 1)) {
    cp = ((b & 0x1Fu) << 6) | (byte(i + 1) & 0x3Fu);
    return 2;
  }
  if (b >= 0xE0 && b <= 0xEF && cont(i + 1) && cont(i + 2)) {
    cp = ((b & 0x0Fu) << 12) | ((byte(i + 1) & 0x3Fu) << 6) | (byte(i + 2) & 0x3Fu);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return 3;
  }
  if (b >= 0xF0 && b <= 0xF4 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
    cp = ((b & 0x07u) << 18) | ((byte(i + 1) & 0x3Fu) << 12) | ((byte(i + 2) & 0x3Fu) << 6) |
         (byte(i + 3) & 0x3Fu);
    if (cp < 0x10000 || cp > 0x10FFFF) return 0;
    return 4;
  }
  return 0;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) {
      out += static_cast<char>(b);
      ++i;
    } else if (b == '\t' || b == '\n' || b == '\r') {
      out += b == '\t' ? "\\t" : b == '\n' ? "\\n" : "\\r";
      ++i;
    } else if (b < 0x80) {
      append_hex_byte(out, b);  // the other C0 controls, ESC among them, and DEL
      ++i;
    } else {
      uint32_t cp = 0;
      size_t n = utf8_sequence(text, i, cp);
      if (n == 0) {
        append_hex_byte(out, b);  // not UTF-8: a lone 0x9B is CSI to an 8-bit terminal
        ++i;
      } else {
        if (is_control_code_point(cp))
          append_code_point(out, cp);
        else
          out.append(text.substr(i, n));
        i += n;
      }
    }
  }
  return out;
}

std::string terminal_safe_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      out += terminal_safe(text.substr(start));
      break;
    }
    out += terminal_safe(text.substr(start, nl - start));
    out += '\n';
    start = nl + 1;
  }
  return out;
}

}  // namespace tlscope::cli
