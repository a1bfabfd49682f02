// The code lexer: tokens cover each line exactly, and keywords, strings, comments, numbers and
// def/class names are found in Python and C++, including across lines.
#include <catch2/catch.hpp>

#include "tlscope/views/code_tokens.hpp"

using tlscope::views::CodeTokenKind;
using tlscope::views::PayloadLanguage;
using tlscope::views::tokenize_code;

namespace {

// "kind:text" per token of line `n`, plain runs skipped.
std::vector<std::string> marked(std::string_view code, PayloadLanguage lang, size_t n) {
  auto lines = tokenize_code(code, lang);
  std::vector<std::string> out;
  const auto& line = lines.at(n);
  std::string_view text = code.substr(line.begin, line.length);
  size_t covered = 0;
  for (const auto& t : line.tokens) {
    CHECK(t.begin == covered);  // no gap, no overlap
    covered += t.length;
    if (t.kind == CodeTokenKind::kPlain) continue;
    const char* k = t.kind == CodeTokenKind::kKeyword   ? "k"
                    : t.kind == CodeTokenKind::kString  ? "s"
                    : t.kind == CodeTokenKind::kComment ? "c"
                    : t.kind == CodeTokenKind::kNumber  ? "n"
                                                        : "f";
    out.push_back(std::string(k) + ":" + std::string(text.substr(t.begin, t.length)));
  }
  CHECK(covered == line.length);
  return out;
}

}  // namespace

TEST_CASE("Python: keywords, def names, strings, numbers, comments, triple quotes across lines") {
  const std::string code =
      "def forward(self, x):  # go\n    return x * 2, 'a'\ns = \"\"\"one\ntwo\"\"\" if True else "
      "None";
  CHECK(marked(code, PayloadLanguage::kPython, 0) ==
        std::vector<std::string>{"k:def", "f:forward", "c:# go"});
  CHECK(marked(code, PayloadLanguage::kPython, 1) ==
        std::vector<std::string>{"k:return", "n:2", "s:'a'"});
  CHECK(marked(code, PayloadLanguage::kPython, 2) == std::vector<std::string>{"s:\"\"\"one"});
  CHECK(marked(code, PayloadLanguage::kPython, 3) ==
        std::vector<std::string>{"s:two\"\"\"", "k:if", "k:True", "k:else", "k:None"});
  CHECK(tokenize_code(code, PayloadLanguage::kPython).size() == 4);
}

TEST_CASE("C++: block comments across lines, line comments, keywords, and plain text stays plain") {
  const std::string code = "for (int i = 0; i < 4; ++i) /* a\nb */ x += 1.5; // done";
  CHECK(marked(code, PayloadLanguage::kCpp, 0) ==
        std::vector<std::string>{"k:for", "k:int", "n:0", "n:4", "c:/* a"});
  CHECK(marked(code, PayloadLanguage::kCpp, 1) ==
        std::vector<std::string>{"c:b */", "n:1.5", "c:// done"});
  CHECK(marked("def x: 'no' # plain", PayloadLanguage::kPlain, 0).empty());
  CHECK(tokenize_code("", PayloadLanguage::kPython).size() == 1);
}
