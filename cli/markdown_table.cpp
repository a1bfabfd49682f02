// Markdown escaping and tables (markdown_table.hpp).
#include "markdown_table.hpp"

#include <utility>

#include "terminal_text.hpp"

namespace tlscope::cli {
namespace {

// The characters that are syntax inside a table cell: the escape itself, code spans, emphasis and
// strikethrough, links and images (`!` only before `[`), HTML and entities, the cell separator.
// Line-start syntax (`#`, `-`, `1.`) cannot occur inside a cell, so numbers and paths stay plain.
constexpr std::string_view kMarkdownSyntax = "\\`*_~[]<>&|";

std::string line_of(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const std::string& c : cells) out += " " + c + " |";
  return out + "\n";
}

}  // namespace

std::string markdown_text(std::string_view log_text) {
  std::string out;
  for (char c : terminal_safe(log_text)) {
    if (kMarkdownSyntax.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

MarkdownTable::MarkdownTable(std::vector<std::string> header) : header_(std::move(header)) {}

void MarkdownTable::row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::text() const {
  std::string out = line_of(header_);
  out += "|";
  for (size_t c = 0; c < header_.size(); ++c) out += " --- |";
  out += "\n";
  for (const auto& r : rows_) out += line_of(r);
  return out;
}

}  // namespace tlscope::cli
