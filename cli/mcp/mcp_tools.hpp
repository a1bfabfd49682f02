// The tools `tlscope mcp` offers, as one list: name, what it answers (the description an agent
// reads to choose it), its arguments as JSON Schema, and the function that answers. A tool answers
// with the same JSON as the matching `--format json` command, so an agent and a script read one
// contract (docs/json.md).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "allowed_roots.hpp"

namespace tlscope::cli::mcp {

using nlohmann::json;

// What a tool needs from the rest of tlscope, given by `tlscope mcp` (cmd_mcp.cpp): opening a
// run goes through the same input cache as every reading command, and the JSON answers are the
// views/ models' own.
struct ToolContext {
  AllowedRoots roots;
  // The database of a log file, rank folder or database (ingested and analysed when needed);
  // throws ToolError when the run cannot be read.
  std::function<std::string(const std::string& resolved_path)> open_run;
  std::function<json(const std::string& db)> summary_json;                        // summary --format json
  std::function<json(const std::string& a, const std::string& b)> compare_json;   // compare --format json
  std::function<json(const std::string& db, const std::string& compile_id, long rank)> compile_json;
  std::function<json(const std::string& db, const std::string& sql, size_t max_rows)> query_json;
};

// A tool's failure: answered as a tool result with isError, which the agent reads and can act on
// (a protocol error would mean the request itself was malformed).
struct ToolError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ToolAnswer {
  std::string text;  // a short sentence or two for the agent's reader
  json structured;   // the JSON (an object)
};

struct ToolSpec {
  const char* name;
  const char* title;
  const char* description;
  const char* input_schema;  // JSON Schema text
  ToolAnswer (*answer)(const ToolContext&, const json& arguments);
};

const std::vector<ToolSpec>& tool_specs();
const ToolSpec* find_tool(const std::string& name);

}  // namespace tlscope::cli::mcp
