// A small lexer that colours Python (FX graphs, Inductor wrappers) and C++ (AOTI wrappers, the
// sample runtime's loop nests). It only has to be right enough to read; every byte is escaped.
#include <algorithm>
#include <array>
#include <cctype>

#include "tlscope/exporters/html.hpp"
#include "tlscope/views/code_tokens.hpp"

namespace tlscope::exporters {

namespace {

// ASCII letters, digits and '_' (what isalpha/isalnum give in the C locale tlscope runs in), by
// table: the per-byte locale calls were a visible share of the report's time.
constexpr bool ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr std::array<bool, 256> kIdentChars = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[c] = ascii_letter(static_cast<char>(c)) || (c >= '0' && c <= '9') || c == '_';
  return t;
}();
bool ident_start(char c) {
  return ascii_letter(c) || c == '_';
}
bool ident_char(char c) {
  return kIdentChars[static_cast<unsigned char>(c)];
}

// Lexer state that survives a line end: inside a triple-quoted string or a /* */ comment.
struct Carry {
  std::string_view close;  // the text that ends the open token, empty when none is open
  const char* cls = "";
};

class LineHighlighter {
 public:
  LineHighlighter(std::string& out, CodeLanguage language) : out_(out), language_(language) {}

  void line(std::string_view text) {
    out_ += "<span class=\"l\">";
    size_t i = 0;
    if (!carry_.close.empty()) i = continue_open(text, 0);
    while (i < text.size()) i = token(text, i);
    out_ += "</span>\n";
  }

 private:
  void span(const char* cls, std::string_view text) {
    out_ += "<span class=\"";
    out_ += cls;
    out_ += "\">";
    append_html_escaped(out_, text);
    out_ += "</span>";
  }

  // Emits the rest of an open multi-line token; returns where normal lexing resumes.
  size_t continue_open(std::string_view text, size_t from) {
    size_t end = text.find(carry_.close, from);
    if (end == std::string_view::npos) {
      span(carry_.cls, text.substr(from));
      return text.size();
    }
    end += carry_.close.size();
    span(carry_.cls, text.substr(from, end - from));
    carry_ = {};
    return end;
  }

  size_t token(std::string_view text, size_t i) {
    char c = text[i];
    bool python = language_ == CodeLanguage::kPython;
    bool cpp = language_ == CodeLanguage::kCpp;
    if ((python && c == '#') || (cpp && text.substr(i, 2) == "//")) {
      span("c", text.substr(i));
      return text.size();
    }
    if (cpp && text.substr(i, 2) == "/*") {
      size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) {
        carry_ = {"*/", "c"};
        span("c", text.substr(i));
        return text.size();
      }
      span("c", text.substr(i, end + 2 - i));
      return end + 2;
    }
    if (python && (text.substr(i, 3) == "\"\"\"" || text.substr(i, 3) == "'''")) {
      carry_ = {text.substr(i, 3) == "\"\"\"" ? "\"\"\"" : "'''", "s"};
      size_t end = text.find(carry_.close, i + 3);
      if (end == std::string_view::npos) {
        span("s", text.substr(i));
        return text.size();
      }
      span("s", text.substr(i, end + 3 - i));
      carry_ = {};
      return end + 3;
    }
    if ((c == '"' || c == '\'') && language_ != CodeLanguage::kPlain) {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      span("s", text.substr(i, j - i));
      return j;
    }
    if (language_ != CodeLanguage::kPlain && std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < text.size() && (ident_char(text[j]) || text[j] == '.')) ++j;
      span("n", text.substr(i, j - i));
      return j;
    }
    if (ident_start(c)) {
      size_t j = i;
      while (j < text.size() && ident_char(text[j])) ++j;
      std::string_view word = text.substr(i, j - i);
      if (views::is_code_keyword(word, language_)) {
        span("k", word);
        if (python && (word == "def" || word == "class")) return name_after(text, j);
      } else {
        append_html_escaped(out_, word);
      }
      return j;
    }
    // A run of ASCII bytes that start no token, escaped in one call, as byte by byte it gave
    // the same text. Bytes >= 0x80 go as one run too: a UTF-8 character cut into its bytes
    // would read as one U+FFFD per byte ("é" in an identifier or an operator's place).
    size_t j = i + 1;
    if (static_cast<unsigned char>(c) < 0x80)
      while (j < text.size() && !starts_token(text[j])) ++j;
    else
      while (j < text.size() && static_cast<unsigned char>(text[j]) >= 0x80) ++j;
    append_html_escaped(out_, text.substr(i, j - i));
    return j;
  }

  // Whether token() would do more with `c` than escape it: the first byte of a comment, string,
  // number or word, or any byte >= 0x80.
  bool starts_token(char c) const {
    if (static_cast<unsigned char>(c) >= 0x80 || ident_start(c)) return true;
    if (language_ == CodeLanguage::kPlain) return false;
    if (c == '"' || c == '\'' || (c >= '0' && c <= '9')) return true;
    return language_ == CodeLanguage::kPython ? c == '#' : c == '/';
  }

  // The function or class name after `def`/`class`.
  size_t name_after(std::string_view text, size_t j) {
    size_t k = j;
    while (k < text.size() && text[k] == ' ') ++k;
    size_t e = k;
    while (e < text.size() && ident_char(text[e])) ++e;
    append_html_escaped(out_, text.substr(j, k - j));
    if (e > k) span("f", text.substr(k, e - k));
    return e;
  }

  std::string& out_;
  CodeLanguage language_;
  Carry carry_;
};

}  // namespace

std::string highlight_code(std::string_view code, CodeLanguage language) {
  std::string out;
  out.reserve(code.size() + code.size() / 2);
  LineHighlighter highlighter(out, language);
  size_t start = 0;
  while (start <= code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string_view::npos) end = code.size();
    highlighter.line(code.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace tlscope::exporters
