// `tlscope query DB "SQL" [--format table|csv|json|markdown]`: run SQL against a tlscope
// database, print an aligned table, CSV, JSON Lines (one object per row) or a markdown table.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "markdown_table.hpp"
#include "mcp/mcp_server.hpp"
#include "mcp/run_answers.hpp"
#include "terminal_text.hpp"
#include "tlscope/views/read_only_query.hpp"

namespace tlscope::cli {
namespace {

struct QueryArgs {
  std::string db;
  std::string sql;
  bool csv = false;
  std::string format = "table";
};

// One object per row, keyed by column name; a repeated name gets ":2", ":3"... so no value is lost.
void print_json_lines(const views::QueryResult& r) {
  std::vector<std::string> keys;
  for (const std::string& c : r.columns) {
    std::string key = c;
    for (int n = 2; std::find(keys.begin(), keys.end(), key) != keys.end(); ++n)
      key = c + ":" + std::to_string(n);
    keys.push_back(key);
  }
  for (const auto& cells : r.rows) {
    mcp::json row = mcp::json::object();
    for (size_t c = 0; c < cells.size() && c < keys.size(); ++c)
      row[keys[c]] = mcp::query_cell_json(cells[c]);
    const std::string line = mcp::dump_json(row);
    std::printf("%s\n", line.c_str());
  }
}

// A pipe table of the rows (markdown_table.hpp escapes the cells); NULL as the word.
void print_markdown(const views::QueryResult& r) {
  std::vector<std::string> header;
  for (const std::string& c : r.columns) header.push_back(markdown_text(c));
  MarkdownTable table(header);
  for (const auto& cells : r.rows) {
    std::vector<std::string> texts;
    for (const views::QueryCell& cell : cells)
      texts.push_back(cell.is_null ? "NULL" : markdown_text(cell.text));
    table.row(texts);
  }
  const std::string text = table.text();
  std::fwrite(text.data(), 1, text.size(), stdout);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

// Display width in code points, so UTF-8 text lines up.
size_t width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void print_table(const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> w(header.size());
  for (size_t c = 0; c < header.size(); ++c) w[c] = width(header[c]);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], width(r[c]));
  auto line = [&](const std::vector<std::string>& r) {
    std::string out;
    for (size_t c = 0; c < r.size(); ++c) {
      if (c) out += "  ";
      out += r[c];
      if (c + 1 < r.size()) out.append(w[c] - width(r[c]), ' ');
    }
    std::printf("%s\n", out.c_str());
  };
  line(header);
  std::vector<std::string> rule;
  for (size_t c = 0; c < w.size(); ++c) rule.push_back(std::string(w[c], '-'));
  line(rule);
  for (const auto& r : rows) line(r);
}

int run_query(const QueryArgs& args) {
  // The one read-only query of views/ (the viewer's SQL console runs it too): a read-only open
  // plus an authorizer that admits reads only. Every row is kept: the table is aligned to them.
  views::QueryResult r =
      views::run_read_only_query(args.db, args.sql, std::numeric_limits<size_t>::max());
  if (!r.ok) {
    std::fprintf(stderr, "tlscope query: %s\n", terminal_safe(r.error).c_str());
    return kUsageOrIo;
  }
  if (args.format == "json") {
    print_json_lines(r);
    return kOk;
  }
  if (args.format == "markdown") {
    if (!r.columns.empty()) print_markdown(r);
    return kOk;
  }
  // CSV keeps the data as it is unless it is going to a terminal.
  const bool raw = args.csv && !isatty(STDOUT_FILENO);
  auto shown = [raw](const std::string& text) { return raw ? text : terminal_safe(text); };
  std::vector<std::string> header;
  for (const std::string& c : r.columns) header.push_back(terminal_safe(c));
  std::vector<std::vector<std::string>> rows;
  rows.reserve(r.rows.size());
  for (const auto& cells : r.rows) {
    auto& row = rows.emplace_back();
    for (const views::QueryCell& cell : cells) row.push_back(shown(cell.text));
  }
  if (args.csv) {
    auto line = [](const std::vector<std::string>& fields) {
      std::string out;
      for (size_t c = 0; c < fields.size(); ++c) out += (c ? "," : "") + csv_field(fields[c]);
      std::printf("%s\n", out.c_str());
    };
    if (!header.empty()) line(header);
    for (const auto& row : rows) line(row);
  } else if (!header.empty()) {
    print_table(header, rows);
  }
  return kOk;
}

CommandRegistration query_registration{
    12, [](CLI::App& app, int& exit_code) {
      auto args = std::make_shared<QueryArgs>();
      CLI::App* cmd = app.add_subcommand("query", "Run SQL on a tlscope database (read-only)");
      cmd->add_option("db", args->db, "Database written by tlscope ingest")->required();
      cmd->add_option("sql", args->sql, "SQL text (see docs/schema.md)")->required();
      cmd->add_flag("--csv", args->csv, "Print CSV instead of an aligned table (--format csv)");
      cmd->add_option("--format", args->format,
                      "table, csv, json (JSON Lines: one object per row, docs/json.md) or markdown")
          ->check(CLI::IsMember({"table", "csv", "json", "markdown"}));
      cmd->callback([args, &exit_code] {
        if (args->format == "csv") args->csv = true;
        exit_code = run_query(*args);
      });
    }};

}  // namespace
}  // namespace tlscope::cli
