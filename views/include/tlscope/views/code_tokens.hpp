// Generated code and graphs as coloured tokens, for front ends that draw code themselves (the
// viewer's compile panel): lines with keyword, string, comment, number and function-name spans of
// Python (FX graphs, Inductor wrappers) and C++ (AOTI wrappers, the sample runtime's loop nests).
// Right enough to read, not a parser. The report's highlighter (exporters/src/syntax_highlight.cpp)
// follows the same rules, with the same keyword lists (is_code_keyword), so a word is coloured
// the same in the report and the viewer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tlscope/views/compile_detail.hpp"

namespace tlscope::views {

enum class CodeTokenKind : uint8_t { kPlain, kKeyword, kString, kComment, kNumber, kFunction };

struct CodeToken {
  uint32_t begin = 0, length = 0;  // offsets into the line
  CodeTokenKind kind = CodeTokenKind::kPlain;
};

struct CodeLine {
  size_t begin = 0, length = 0;   // offsets into the code
  std::vector<CodeToken> tokens;  // cover the line, in order; plain runs merged
};

// Whether `word` is a keyword of `language` (never for kPlain): the one list both front ends use.
bool is_code_keyword(std::string_view word, PayloadLanguage language);

// One entry per line (a final line without '\n' included; "" gives one empty line).
std::vector<CodeLine> tokenize_code(std::string_view code, PayloadLanguage language);

}  // namespace tlscope::views
