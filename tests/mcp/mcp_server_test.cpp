// The MCP server's protocol and its confinement to the allowed folders, called directly (the
// official SDK client drives the real process in sdk_client_test.mjs).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "mcp/mcp_server.hpp"

namespace fs = std::filesystem;
using tlscope::cli::mcp::AllowedRoots;
using tlscope::cli::mcp::json;
using tlscope::cli::mcp::McpServer;
using tlscope::cli::mcp::ToolContext;
using tlscope::cli::mcp::ToolError;

namespace {

struct TempTree {
  fs::path root;
  TempTree() {
    char pattern[] = "/tmp/tlscope-mcp-test-XXXXXX";
    root = mkdtemp(pattern);
  }
  ~TempTree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  fs::path file(const std::string& name, const std::string& text = "x") const {
    fs::create_directories((root / name).parent_path());
    std::ofstream(root / name) << text;
    return root / name;
  }
};

// A context whose run opener echoes the admitted path, so the tests see what was admitted.
ToolContext context_for(const std::vector<std::string>& roots) {
  ToolContext c{AllowedRoots(roots), [](const std::string& p) { return "db:" + p; }, nullptr,
                nullptr, nullptr, nullptr};
  c.query_json = [](const std::string& db, const std::string& sql, size_t max_rows) {
    return json{{"db", db}, {"sql", sql}, {"max_rows", max_rows}, {"rows", json::array()}};
  };
  return c;
}

json request(McpServer& server, const std::string& method, json params, int id = 1) {
  auto r = server.handle(json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
  REQUIRE(r.has_value());
  return *r;
}

}  // namespace

TEST_CASE("initialize answers the client's revision when it speaks it, else its own") {
  McpServer server(context_for({"/tmp"}));
  json r = request(server, "initialize",
                   {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                    {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  CHECK(r["result"]["protocolVersion"] == "2025-06-18");
  CHECK(r["result"]["serverInfo"]["name"] == "tlscope");
  CHECK(r["result"]["capabilities"].contains("tools"));
  r = request(server, "initialize", {{"protocolVersion", "1999-01-01"}});
  CHECK(r["result"]["protocolVersion"] == "2025-11-25");
}

TEST_CASE("tools/list names every tool with an object schema") {
  McpServer server(context_for({"/tmp"}));
  json r = request(server, "tools/list", json::object());
  std::vector<std::string> names;
  for (const json& t : r["result"]["tools"]) {
    names.push_back(t["name"]);
    CHECK(t["inputSchema"]["type"] == "object");
    CHECK(!t["description"].get<std::string>().empty());
  }
  CHECK(names == std::vector<std::string>{"summarize_run", "list_findings", "explain_recompiles",
                                          "compare_runs", "query", "show_compile"});
}

TEST_CASE("protocol errors are JSON-RPC errors, notifications get no answer") {
  McpServer server(context_for({"/tmp"}));
  CHECK(request(server, "no/such", json::object())["error"]["code"] == -32601);
  CHECK(request(server, "tools/call", {{"name", "no_such_tool"}})["error"]["code"] == -32602);
  CHECK(!server.handle(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
  auto parse = server.handle_line("{\"jsonrpc\": \"2.0\", \"id\": 1, ");
  REQUIRE(parse);
  CHECK(json::parse(*parse)["error"]["code"] == -32700);
  auto wrong = server.handle_line("[1, 2]");
  REQUIRE(wrong);
  CHECK(json::parse(*wrong)["error"]["code"] == -32600);
  CHECK(!server.handle_line("   "));
  // An answer to a log text with invalid UTF-8 is still valid JSON.
  auto bad_bytes = server.handle_line("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"x\xff\"}");
  REQUIRE(bad_bytes);
  CHECK_NOTHROW(json::parse(*bad_bytes));
}

TEST_CASE("a tool's failure is a result with isError, naming what was wrong") {
  McpServer server(context_for({"/tmp"}));
  json r = request(server, "tools/call", {{"name", "query"}, {"arguments", {{"path", "/tmp"}}}});
  CHECK(r["result"]["isError"] == true);
  CHECK(r["result"]["content"][0]["text"].get<std::string>().find("sql") != std::string::npos);
  r = request(server, "tools/call",
              {{"name", "query"}, {"arguments", {{"path", "/tmp"}, {"sql", "SELECT 1"}, {"max_rows", 0}}}});
  CHECK(r["result"]["isError"] == true);
}

TEST_CASE("runs are read only inside the allowed folders, links and .. resolved first") {
  TempTree allowed, outside;
  const fs::path log = allowed.file("run/rank0.log");
  const fs::path secret = outside.file("secret.log");
  fs::create_symlink(secret, allowed.root / "link_out.log");
  fs::create_directories(allowed.root / "ranks");
  fs::create_symlink(secret, allowed.root / "ranks" / "dedicated_log_torch_trace_rank_0.log");
  McpServer server(context_for({allowed.root.string()}));
  auto call = [&](const std::string& path) {
    return request(server, "tools/call",
                   {{"name", "query"}, {"arguments", {{"path", path}, {"sql", "SELECT 1"}}}})["result"];
  };
  json ok = call(log.string());
  REQUIRE(ok["isError"] == false);
  CHECK(ok["structuredContent"]["db"] == "db:" + fs::canonical(log).string());
  CHECK(call("run/rank0.log")["isError"] == false);  // relative: from the first root
  CHECK(call(secret.string())["isError"] == true);
  CHECK(call((allowed.root / "link_out.log").string())["isError"] == true);
  CHECK(call((allowed.root / "run" / ".." / ".." / secret.parent_path().filename() / "secret.log")
                 .string())["isError"] == true);
  // A folder of rank logs with one linking out is refused whole.
  json folder = call((allowed.root / "ranks").string());
  CHECK(folder["isError"] == true);
  CHECK(folder["content"][0]["text"].get<std::string>().find("outside") != std::string::npos);
  CHECK(call("/etc/passwd")["isError"] == true);
}

TEST_CASE("a root that does not exist is named and serves nothing") {
  AllowedRoots roots({"/no/such/folder"});
  CHECK(roots.roots().empty());
  REQUIRE(roots.problems().size() == 1);
  std::string why;
  CHECK(roots.admit("/tmp", why).empty());
  CHECK(why.find("--root") != std::string::npos);
}

TEST_CASE("serve answers one line per request and skips an oversized message") {
  McpServer server(context_for({"/tmp"}));
  std::string input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n" +
                      std::string(McpServer::kMaxMessageBytes + 10, 'x') + "\n" +
                      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n" +
                      "{\"jsonrpc\":\"2.0\",\"id\":\"two\",\"method\":\"ping\"}";
  std::FILE* in = fmemopen(input.data(), input.size(), "r");
  char* out_buf = nullptr;
  size_t out_size = 0;
  std::FILE* out = open_memstream(&out_buf, &out_size);
  server.serve(in, out);
  std::fclose(in);
  std::fclose(out);
  std::string output(out_buf, out_size);
  free(out_buf);
  std::vector<json> lines;
  size_t start = 0, end;
  while ((end = output.find('\n', start)) != std::string::npos) {
    lines.push_back(json::parse(output.substr(start, end - start)));
    start = end + 1;
  }
  REQUIRE(lines.size() == 3);
  CHECK(lines[0]["id"] == 1);
  CHECK(lines[1]["error"]["code"] == -32600);
  CHECK(lines[2]["id"] == "two");
}
