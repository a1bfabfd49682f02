// Escaping of log-derived text for HTML, JSON-in-script and URLs.
#include <array>
#include <cstdint>

#include "tlscope/exporters/html.hpp"
#include "tlscope/exporters/percent_encoding.hpp"

namespace tlscope::exporters {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not valid.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  // Reject overlong forms, surrogates and values past U+10FFFF.
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

}  // namespace

// ASCII bytes copied as they are: everything below 0x80 except the escaped five and NUL.
constexpr std::array<bool, 256> kPlainHtmlBytes = [] {
  std::array<bool, 256> plain{};
  for (int c = 1; c < 0x80; ++c) plain[c] = true;
  for (char c : {'&', '<', '>', '"', '\''}) plain[static_cast<unsigned char>(c)] = false;
  return plain;
}();

void append_html_escaped(std::string& out, std::string_view text) {
  out.reserve(out.size() + text.size());
  for (size_t i = 0; i < text.size();) {
    // Runs of plain ASCII (most of a payload) are appended in one piece, not byte by byte:
    // the report escapes hundreds of MB of generated code.
    size_t run = i;
    while (run < text.size() && kPlainHtmlBytes[static_cast<unsigned char>(text[run])]) ++run;
    if (run > i) {
      out.append(text.data() + i, run - i);
      i = run;
      if (i == text.size()) break;
    }
    char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&#39;";
        ++i;
        continue;
      case '\0':
        out += kReplacement;
        ++i;
        continue;
      default:
        break;
    }
    size_t n = utf8_sequence_length(text, i);
    if (n == 0) {
      out += kReplacement;
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
}

std::string html_escape(std::string_view text) {
  std::string out;
  append_html_escaped(out, text);
  return out;
}

std::string html_clipped(std::string_view text, size_t max_chars) {
  // Cut after max_chars code points, never inside one.
  size_t cut = 0, chars = 0;
  while (cut < text.size() && chars < max_chars) {
    size_t n = utf8_sequence_length(text, cut);
    cut += n == 0 ? 1 : n;
    ++chars;
  }
  if (cut >= text.size()) return html_escape(text);
  size_t total = chars;
  for (size_t i = cut; i < text.size(); ++total) {
    size_t n = utf8_sequence_length(text, i);
    i += n == 0 ? 1 : n;
  }
  std::string out = "<details class=\"long-text\"><summary>";
  append_html_escaped(out, text.substr(0, cut));
  out += "<span class=\"clip-tail\">&hellip; <span class=\"muted\">(" + std::to_string(total) +
         " characters: show all)</span></span></summary>";
  append_html_escaped(out, text.substr(cut));
  out += "</details>";
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto unicode_escape = [&](unsigned v) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(v >> shift) & 0xF];
  };
  out += '"';
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      unicode_escape(c);
    } else if (c >= 0x80) {
      size_t n = utf8_sequence_length(text, i);
      if (n == 0) {
        unicode_escape(0xFFFD);
        ++i;
        continue;
      }
      std::string_view seq = text.substr(i, n);
      if (seq == "\xE2\x80\xA8" || seq == "\xE2\x80\xA9") {
        unicode_escape(seq[2] == '\xA8' ? 0x2028 : 0x2029);
      } else {
        out.append(seq);
      }
      i += n;
      continue;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  out += '"';
}

std::string json_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

std::string url_escape(std::string_view text) {
  return percent_encode(text, "._-/");
}

}  // namespace tlscope::exporters
