#include "mcp_server.hpp"

#include <array>
#include <exception>

#include "tlscope/version.hpp"

namespace tlscope::cli::mcp {
namespace {

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;

// Revisions this server speaks; the first is the one it offers to a client that asks for another.
constexpr std::array<const char*, 4> kRevisions = {kProtocolVersion, "2025-06-18", "2025-03-26",
                                                   "2024-11-05"};

// A request the server answers with a JSON-RPC error object.
struct ProtocolError {
  int code;
  std::string message;
};

json error_response(const json& id, int code, const std::string& message) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json initialize_result(const json& params) {
  std::string revision = kProtocolVersion;
  if (params.is_object() && params.contains("protocolVersion") &&
      params["protocolVersion"].is_string()) {
    const std::string asked = params["protocolVersion"].get<std::string>();
    for (const char* r : kRevisions)
      if (asked == r) revision = asked;
  }
  return json{{"protocolVersion", revision},
              {"capabilities", {{"tools", {{"listChanged", false}}}}},
              {"serverInfo", {{"name", "tlscope"}, {"title", "tlscope"}, {"version", std::string(kVersion)}}},
              {"instructions",
               "tlscope reads torch.compile TORCH_TRACE logs. Give a tool a log file, a folder of "
               "rank logs or a tlscope database inside the folders the server allows. Start with "
               "summarize_run; compare_runs says what changed between two runs."}};
}

json tools_list() {
  json tools = json::array();
  for (const ToolSpec& t : tool_specs()) {
    tools.push_back(json{{"name", t.name},
                         {"title", t.title},
                         {"description", t.description},
                         {"inputSchema", json::parse(t.input_schema)}});
  }
  return json{{"tools", tools}};
}

json tool_result(const ToolAnswer& answer, bool is_error) {
  json content = json::array();
  content.push_back(json{{"type", "text"}, {"text", answer.text}});
  json result{{"content", content}, {"isError", is_error}};
  if (!is_error) {
    // Clients of revisions before structured content read the JSON from the text.
    result["content"].push_back(json{{"type", "text"}, {"text", dump_json(answer.structured)}});
    result["structuredContent"] = answer.structured;
  }
  return result;
}

}  // namespace

std::string dump_json(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

json McpServer::dispatch(const std::string& method, const json& params) {
  if (method == "initialize") {
    initialized_ = true;
    return initialize_result(params);
  }
  if (method == "ping") return json::object();
  if (method == "tools/list") return tools_list();
  if (method == "tools/call") {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
      throw ProtocolError{kInvalidParams, "tools/call needs a tool name"};
    const std::string name = params["name"].get<std::string>();
    const ToolSpec* tool = find_tool(name);
    if (!tool) throw ProtocolError{kInvalidParams, "unknown tool: " + name};
    json arguments = params.value("arguments", json::object());
    if (!arguments.is_object())
      throw ProtocolError{kInvalidParams, "tools/call arguments must be an object"};
    try {
      return tool_result(tool->answer(context_, arguments), false);
    } catch (const ToolError& e) {
      return tool_result(ToolAnswer{e.what(), json::object()}, true);
    } catch (const json::exception& e) {
      return tool_result(ToolAnswer{std::string("unexpected JSON: ") + e.what(), json::object()},
                         true);
    }
  }
  throw ProtocolError{kMethodNotFound, "method not found: " + method};
}

std::optional<json> McpServer::handle(const json& message) {
  if (!message.is_object()) return error_response(nullptr, kInvalidRequest, "not a JSON-RPC message");
  const bool has_id = message.contains("id");
  const json id = has_id ? message["id"] : json(nullptr);
  if (has_id && !id.is_string() && !id.is_number_integer())
    return error_response(nullptr, kInvalidRequest, "id must be a string or an integer");
  if (message.value("jsonrpc", "") != "2.0" || !message.contains("method") ||
      !message["method"].is_string()) {
    // A response from the client (to a request this server never sends) needs no answer.
    if (message.contains("result") || message.contains("error")) return std::nullopt;
    return error_response(id, kInvalidRequest, "not a JSON-RPC 2.0 request");
  }
  const std::string method = message["method"].get<std::string>();
  if (!has_id) return std::nullopt;  // notifications (initialized, cancelled) need no answer
  try {
    return json{{"jsonrpc", "2.0"}, {"id", id},
                {"result", dispatch(method, message.value("params", json::object()))}};
  } catch (const ProtocolError& e) {
    return error_response(id, e.code, e.message);
  } catch (const std::exception& e) {
    return error_response(id, kInternalError, e.what());
  }
}

std::optional<std::string> McpServer::handle_line(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
  json message;
  try {
    message = json::parse(line);
  } catch (const json::parse_error& e) {
    return dump_json(error_response(nullptr, kParseError, std::string("parse error: ") + e.what()));
  }
  std::optional<json> response = handle(message);
  if (!response) return std::nullopt;
  return dump_json(*response);
}

void McpServer::serve(std::FILE* in, std::FILE* out) {
  std::string line;
  bool too_long = false;
  int c;
  auto answer = [&](const std::optional<std::string>& response) {
    if (!response) return;
    std::fwrite(response->data(), 1, response->size(), out);
    std::fputc('\n', out);
    std::fflush(out);
  };
  while ((c = getc_unlocked(in)) != EOF) {
    if (c != '\n') {
      if (line.size() < kMaxMessageBytes) line.push_back(static_cast<char>(c));
      else too_long = true;
      continue;
    }
    if (too_long) {
      answer(dump_json(error_response(nullptr, kInvalidRequest, "message longer than 16 MiB")));
    } else {
      answer(handle_line(line));
    }
    line.clear();
    too_long = false;
  }
  if (!line.empty() && !too_long) answer(handle_line(line));
}

}  // namespace tlscope::cli::mcp
