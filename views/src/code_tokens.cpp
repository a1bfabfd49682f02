// The code lexer: per line, with the state that survives a line end (inside a triple-quoted
// string or a /* */ comment) carried to the next.
#include "tlscope/views/code_tokens.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace tlscope::views {
namespace {

constexpr std::array<std::string_view, 35> kPythonKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

constexpr std::array<std::string_view, 39> kCppKeywords = {
    "auto",     "bool",     "break",  "case",   "char",   "class",    "const",  "constexpr",
    "continue", "default",  "do",     "double", "else",   "enum",     "extern", "false",
    "float",    "for",      "if",     "inline", "int",    "int64_t",  "long",   "namespace",
    "nullptr",  "return",   "static", "struct", "switch", "template", "true",   "typedef",
    "uint8_t",  "unsigned", "using",  "void",   "while",  "size_t",   "int32_t"};

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class LineLexer {
 public:
  explicit LineLexer(PayloadLanguage language) : language_(language) {}

  std::vector<CodeToken> line(std::string_view text) {
    tokens_.clear();
    size_t i = 0;
    if (!close_.empty()) i = continue_open(text);
    while (i < text.size()) i = token(text, i);
    return std::move(tokens_);
  }

 private:
  void emit(CodeTokenKind kind, size_t begin, size_t end) {
    if (end <= begin) return;
    if (kind == CodeTokenKind::kPlain && !tokens_.empty() &&
        tokens_.back().kind == CodeTokenKind::kPlain &&
        tokens_.back().begin + tokens_.back().length == begin) {
      tokens_.back().length += static_cast<uint32_t>(end - begin);
      return;
    }
    tokens_.push_back({static_cast<uint32_t>(begin), static_cast<uint32_t>(end - begin), kind});
  }

  size_t continue_open(std::string_view text) {
    size_t end = text.find(close_);
    if (end == std::string_view::npos) {
      emit(open_kind_, 0, text.size());
      return text.size();
    }
    end += close_.size();
    emit(open_kind_, 0, end);
    close_ = {};
    return end;
  }

  bool keyword(std::string_view word) const { return is_code_keyword(word, language_); }

  // Until `close` on this line, or the line's end (then the token stays open).
  size_t open_until(std::string_view text, size_t i, size_t skip, std::string_view close,
                    CodeTokenKind kind) {
    size_t end = text.find(close, i + skip);
    if (end == std::string_view::npos) {
      close_ = close;
      open_kind_ = kind;
      emit(kind, i, text.size());
      return text.size();
    }
    emit(kind, i, end + close.size());
    return end + close.size();
  }

  size_t token(std::string_view text, size_t i) {
    const char c = text[i];
    const bool python = language_ == PayloadLanguage::kPython;
    const bool cpp = language_ == PayloadLanguage::kCpp;
    if ((python && c == '#') || (cpp && text.substr(i, 2) == "//")) {
      emit(CodeTokenKind::kComment, i, text.size());
      return text.size();
    }
    if (cpp && text.substr(i, 2) == "/*")
      return open_until(text, i, 2, "*/", CodeTokenKind::kComment);
    if (python && (text.substr(i, 3) == "\"\"\"" || text.substr(i, 3) == "'''")) {
      return open_until(text, i, 3, text[i] == '"' ? "\"\"\"" : "'''", CodeTokenKind::kString);
    }
    if ((c == '"' || c == '\'') && language_ != PayloadLanguage::kPlain) {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      emit(CodeTokenKind::kString, i, j);
      return j;
    }
    if (language_ != PayloadLanguage::kPlain && std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < text.size() && (ident_char(text[j]) || text[j] == '.')) ++j;
      emit(CodeTokenKind::kNumber, i, j);
      return j;
    }
    if (ident_start(c)) {
      size_t j = i;
      while (j < text.size() && ident_char(text[j])) ++j;
      const std::string_view word = text.substr(i, j - i);
      if (!keyword(word)) {
        emit(CodeTokenKind::kPlain, i, j);
        return j;
      }
      emit(CodeTokenKind::kKeyword, i, j);
      if (!(python && (word == "def" || word == "class"))) return j;
      size_t k = j;  // the name after def / class
      while (k < text.size() && text[k] == ' ') ++k;
      size_t e = k;
      while (e < text.size() && ident_char(text[e])) ++e;
      emit(CodeTokenKind::kPlain, j, k);
      emit(CodeTokenKind::kFunction, k, e);
      return e;
    }
    emit(CodeTokenKind::kPlain, i, i + 1);
    return i + 1;
  }

  PayloadLanguage language_;
  std::vector<CodeToken> tokens_;
  std::string_view close_;  // what ends the open multi-line token; empty when none is open
  CodeTokenKind open_kind_ = CodeTokenKind::kPlain;
};

}  // namespace

bool is_code_keyword(std::string_view word, PayloadLanguage language) {
  if (language == PayloadLanguage::kPython)
    return std::find(kPythonKeywords.begin(), kPythonKeywords.end(), word) != kPythonKeywords.end();
  if (language == PayloadLanguage::kCpp)
    return std::find(kCppKeywords.begin(), kCppKeywords.end(), word) != kCppKeywords.end();
  return false;
}

std::vector<CodeLine> tokenize_code(std::string_view code, PayloadLanguage language) {
  std::vector<CodeLine> lines;
  LineLexer lexer(language);
  size_t start = 0;
  while (start <= code.size()) {
    size_t end = code.find('\n', start);
    if (end == std::string_view::npos) end = code.size();
    CodeLine line;
    line.begin = start;
    line.length = end - start;
    line.tokens = lexer.line(code.substr(start, end - start));
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

}  // namespace tlscope::views
