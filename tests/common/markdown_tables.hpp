// Markdown output checked as a renderer would read it (issue 28: "markdown output renders as a
// table, or is checked structurally"): the pipe tables of a text, each a header row, a separator
// row of `---` cells, and body rows with the header's cell count, cells split on unescaped `|`.
#pragma once

#include <string>
#include <vector>

namespace tlscope::test {

struct MarkdownTableFound {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string problem;  // empty when the table is well formed
};

// A table line's cells, trimmed; `\|` is a pipe inside a cell, `\\` an escaped backslash.
inline std::vector<std::string> markdown_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool open = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '\\' && i + 1 < line.size()) {
      cell += c;
      cell += line[++i];
      continue;
    }
    if (c == '|') {
      if (open) cells.push_back(cell);
      open = true;
      cell.clear();
      continue;
    }
    cell += c;
  }
  for (std::string& c : cells) {
    size_t b = c.find_first_not_of(' '), e = c.find_last_not_of(' ');
    c = b == std::string::npos ? "" : c.substr(b, e - b + 1);
  }
  return cells;
}

// Every run of lines starting with `|` in `text`, checked.
inline std::vector<MarkdownTableFound> markdown_tables(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::vector<MarkdownTableFound> tables;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty() || lines[i][0] != '|') continue;
    MarkdownTableFound t;
    t.header = markdown_cells(lines[i]);
    size_t j = i + 1;
    if (j >= lines.size() || lines[j].empty() || lines[j][0] != '|') {
      t.problem = "line " + std::to_string(i + 1) + ": a header row without a separator row";
    } else {
      std::vector<std::string> rule = markdown_cells(lines[j]);
      if (rule.size() != t.header.size())
        t.problem = "line " + std::to_string(j + 1) + ": the separator has " +
                    std::to_string(rule.size()) + " cells, the header " +
                    std::to_string(t.header.size());
      for (const std::string& r : rule)
        if (r.find_first_not_of(":-") != std::string::npos || r.find("---") == std::string::npos)
          t.problem = "line " + std::to_string(j + 1) + ": not a separator row";
      for (++j; j < lines.size() && !lines[j].empty() && lines[j][0] == '|'; ++j) {
        t.rows.push_back(markdown_cells(lines[j]));
        if (t.rows.back().size() != t.header.size() && t.problem.empty())
          t.problem = "line " + std::to_string(j + 1) + ": " +
                      std::to_string(t.rows.back().size()) + " cells, the header has " +
                      std::to_string(t.header.size());
        if (lines[j].back() != '|' && t.problem.empty())
          t.problem = "line " + std::to_string(j + 1) + ": does not end with |";
      }
    }
    tables.push_back(t);
    i = j - 1;
  }
  return tables;
}

}  // namespace tlscope::test
