// Markdown for `--format markdown` (summary, compare, query, runs, rage --commands): one escaper
// for log text and one table writer, so every command's tables are well formed whatever a log
// holds. A table is the header row, the separator row, then rows with exactly the header's cell
// count (a row given fewer cells is padded with empty ones, more are cut: never a ragged table).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tlscope::cli {

// Log text as one line of markdown: terminal controls escaped first (a markdown file is read in
// a terminal too; a line break becomes the two characters \n, so a cell never spans lines),
// then every character markdown reads as syntax inside a cell backslash-escaped (`|` cannot end
// a cell, `<` cannot open HTML, `*` `_` cannot start emphasis).
std::string markdown_text(std::string_view log_text);

class MarkdownTable {
 public:
  // Column names are the command's own words: written as they are.
  explicit MarkdownTable(std::vector<std::string> header);
  // Cells already escaped (markdown_text) or made by the command (numbers, code spans).
  void row(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }
  // The table, every line ending with a newline.
  std::string text() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace tlscope::cli
