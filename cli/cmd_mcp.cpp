// `tlscope mcp [--root DIR]...`: the Model Context Protocol server on stdin/stdout (cli/mcp/).
// Only runs inside the allowed folders are read; nothing is written but the input cache's
// databases, as for every reading command.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "command.hpp"
#include "mcp/mcp_server.hpp"
#include "mcp/run_answers.hpp"
#include "terminal_text.hpp"
#include "tlscope/model/input_cache.hpp"

namespace tlscope::cli {
namespace {

struct McpArgs {
  std::vector<std::string> roots;
};

std::string open_run_database(const std::string& resolved_path) {
  model::ResolveOptions options;
  options.jobs = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  model::ResolvedDatabase r = model::resolve_input_database({resolved_path}, options);
  if (!r.ok) throw mcp::ToolError(r.error);
  return r.path;
}

int run_mcp(const McpArgs& args) {
  std::vector<std::string> roots = args.roots;
  if (roots.empty()) {
    // Without --root the folder it was started in: what an agent's client usually names.
    std::unique_ptr<char, decltype(&free)> cwd(getcwd(nullptr, 0), &free);
    if (cwd) roots.emplace_back(cwd.get());
  }
  mcp::ToolContext context{mcp::AllowedRoots(roots), open_run_database, nullptr, nullptr,
                           mcp::compile_json, mcp::query_json};
  for (const std::string& problem : context.roots.problems())
    std::fprintf(stderr, "tlscope mcp: --root %s\n", terminal_safe(problem).c_str());
  if (context.roots.roots().empty()) {
    std::fprintf(stderr, "tlscope mcp: no folder to serve: give --root DIR\n");
    return kUsageOrIo;
  }
  // stdout is the protocol's stream: every note goes to stderr.
  std::fprintf(stderr, "tlscope mcp: serving runs under %s on stdin/stdout\n",
               terminal_safe(context.roots.roots().front()).c_str());
  mcp::McpServer server(std::move(context));
  server.serve(stdin, stdout);
  return kOk;
}

CommandRegistration mcp_registration{
    85, [](CLI::App& app, int& exit_code) {
      auto args = std::make_shared<McpArgs>();
      CLI::App* cmd = app.add_subcommand(
          "mcp", "Model Context Protocol server on stdin/stdout, for coding agents");
      cmd->add_option("--root", args->roots,
                      "Folder whose runs the server may read (repeatable; default: the current "
                      "folder). Paths outside them, links out included, are refused");
      cmd->callback([args, &exit_code] { exit_code = run_mcp(*args); });
    }};

}  // namespace
}  // namespace tlscope::cli
