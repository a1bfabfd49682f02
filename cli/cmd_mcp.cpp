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
#include "compare_json.hpp"
#include "mcp/mcp_server.hpp"
#include "mcp/run_answers.hpp"
#include "summary_json.hpp"
#include "terminal_text.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/input_cache.hpp"
#include "tlscope/views/compare.hpp"
#include "tlscope/views/run_summary.hpp"

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

// A database the input cache resolved, with its analysis tables (a database ingested with
// --no-analyze gets them, as `tlscope compare` does).
void require_analysis(const std::string& db) {
  model::analysis::EnsuredAnalysis analysed = model::analysis::ensure_analysis(db);
  if (!analysed.ok) throw mcp::ToolError(analysed.error);
}

// The answers of `summary --format json` and `compare --format json`: the same views/ models
// written by the same writers, read back as JSON for the protocol.
mcp::json summary_answer(const std::string& db_path) {
  require_analysis(db_path);
  views::Database db(db_path);
  if (std::string why = db.not_tlscope_reason(); !why.empty()) throw mcp::ToolError(why);
  views::Result<views::RunSummary> s = views::load_run_summary(db);
  if (!s.ok()) throw mcp::ToolError(s.error);
  return mcp::json::parse(summary_json(*s));
}

mcp::json compare_answer(const std::string& a_path, const std::string& b_path) {
  require_analysis(a_path);
  require_analysis(b_path);
  views::Database a(a_path), b(b_path);
  for (const views::Database* db : {&a, &b})
    if (std::string why = db->not_tlscope_reason(); !why.empty()) throw mcp::ToolError(why);
  views::Result<views::Comparison> c = views::compare_runs(a, b);
  if (!c.ok()) throw mcp::ToolError(c.error);
  return mcp::json::parse(compare_json(*c));
}

int run_mcp(const McpArgs& args) {
  std::vector<std::string> roots = args.roots;
  if (roots.empty()) {
    // Without --root the folder it was started in: what an agent's client usually names.
    std::unique_ptr<char, decltype(&free)> cwd(getcwd(nullptr, 0), &free);
    if (cwd) roots.emplace_back(cwd.get());
  }
  mcp::ToolContext context{mcp::AllowedRoots(roots), open_run_database, summary_answer,
                           compare_answer,           mcp::compile_json, mcp::query_json};
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
