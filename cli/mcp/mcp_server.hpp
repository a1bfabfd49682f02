// `tlscope mcp`: a Model Context Protocol server over stdio (JSON-RPC 2.0, one message a line,
// revision 2025-11-25), so a coding agent asks tlscope about runs instead of scraping its pages.
// The server is a function from one request to at most one response (handle()), which the tests
// call directly; serve() is the loop over standard input that `tlscope mcp` runs.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp_tools.hpp"

namespace tlscope::cli::mcp {

using nlohmann::json;

inline constexpr const char* kProtocolVersion = "2025-11-25";

class McpServer {
 public:
  explicit McpServer(ToolContext context) : context_(std::move(context)) {}

  // The response to one message (a request or a batch of them), or nullopt for a notification.
  std::optional<json> handle(const json& message);
  // One line of input as received: a parse error is answered, never thrown.
  std::optional<std::string> handle_line(const std::string& line);

  // Reads messages from `in` until end of input, writing each response as one line to `out`.
  // Lines longer than kMaxMessageBytes are answered with an error and skipped.
  void serve(std::FILE* in, std::FILE* out);

  static constexpr size_t kMaxMessageBytes = size_t{16} << 20;

 private:
  json dispatch(const std::string& method, const json& params);
  ToolContext context_;
  bool initialized_ = false;
};

// Writes `value` as JSON text, replacing invalid UTF-8 (log text may hold any bytes).
std::string dump_json(const json& value, int indent = -1);

}  // namespace tlscope::cli::mcp
