// Code with line numbers and syntax colours (views::tokenize_code), in a scrolling child that
// draws only its visible lines; each drawn line is recorded in the UI dump.
#pragma once

#include <string>
#include <vector>

#include "tlscope/views/code_tokens.hpp"

namespace tlscope::gui {

struct CodeText {
  std::string text;
  std::vector<views::CodeLine> lines;
};

CodeText make_code_text(std::string text, views::PayloadLanguage language);

// `max_lines` visible at once (the child scrolls past that).
void draw_code(const char* id, const CodeText& code, int max_lines = 18);

}  // namespace tlscope::gui
