#include "mcp_tools.hpp"

#include <algorithm>
#include <cstdint>

namespace tlscope::cli::mcp {
namespace {

// A query's rows past this many are cut (the answer says so): an agent's context is small.
constexpr int64_t kDefaultQueryRows = 200;
constexpr int64_t kMaxQueryRows = 10000;

std::string string_argument(const json& arguments, const char* name, bool required) {
  auto it = arguments.find(name);
  if (it == arguments.end() || it->is_null()) {
    if (required) throw ToolError(std::string("missing argument '") + name + "'");
    return "";
  }
  if (!it->is_string()) throw ToolError(std::string("argument '") + name + "' must be a string");
  return it->get<std::string>();
}

// An optional whole number; `fallback` when absent.
int64_t integer_argument(const json& arguments, const char* name, int64_t fallback) {
  auto it = arguments.find(name);
  if (it == arguments.end() || it->is_null()) return fallback;
  if (!it->is_number_integer())
    throw ToolError(std::string("argument '") + name + "' must be a whole number");
  return it->get<int64_t>();
}

// The database of the run `arguments[name]` names, refused outside the allowed folders.
std::string run_database(const ToolContext& context, const json& arguments, const char* name) {
  const std::string path = string_argument(arguments, name, true);
  std::string why;
  const std::string resolved = context.roots.admit(path, why);
  if (resolved.empty()) throw ToolError(why);
  return context.open_run(resolved);
}

template <typename F>
const F& backend(const F& f, const char* what) {
  if (!f) throw ToolError(std::string(what) + " is not available in this build");
  return f;
}

ToolAnswer summarize_run(const ToolContext& context, const json& arguments) {
  const json summary = backend(context.summary_json, "summary")(run_database(context, arguments, "path"));
  const json& compiles = summary.value("compiles", json::object());
  std::string text = "torch " + (summary.contains("torch_version") && summary["torch_version"].is_string()
                                     ? summary["torch_version"].get<std::string>()
                                     : std::string("(version not logged)")) +
                     "; " + std::to_string(compiles.value("attempted", 0)) + " compiles, " +
                     std::to_string(compiles.value("failed", 0)) + " failed, " +
                     std::to_string(summary.value("recompiles", 0)) + " recompiles, " +
                     std::to_string(summary.value("findings", json::array()).size()) + " findings";
  return {text, summary};
}

ToolAnswer list_findings(const ToolContext& context, const json& arguments) {
  const std::string kind = string_argument(arguments, "kind", false);
  const int64_t rank = integer_argument(arguments, "rank", -1);
  const json summary = backend(context.summary_json, "summary")(run_database(context, arguments, "path"));
  json kept = json::array();
  for (const json& finding : summary.value("findings", json::array())) {
    if (!kind.empty() && finding.value("kind", "") != kind) continue;
    if (rank >= 0) {
      const json ranks = finding.value("ranks", json::array());
      if (std::find(ranks.begin(), ranks.end(), json(rank)) == ranks.end()) continue;
    }
    kept.push_back(finding);
  }
  std::string text = std::to_string(kept.size()) + " finding(s)";
  for (size_t i = 0; i < kept.size() && i < 5; ++i) text += "\n- " + kept[i].value("text", "");
  if (kept.size() > 5) text += "\n...";
  return {text, json{{"findings", kept}}};
}

ToolAnswer explain_recompiles(const ToolContext& context, const json& arguments) {
  const std::string frame = string_argument(arguments, "frame", false);
  const json summary = backend(context.summary_json, "summary")(run_database(context, arguments, "path"));
  json frames = json::array();
  std::string text;
  for (const json& f : summary.value("frames", json::array())) {
    const std::string function = f.value("function", "");
    if (!frame.empty() && function != frame &&
        (function + ":" + std::to_string(f.value("line", 0))) != frame)
      continue;
    const json reasons = f.value("recompile_reasons", json::array());
    if (frame.empty() && reasons.empty()) continue;
    frames.push_back(f);
    text += function + " (" + f.value("file", "") + ":" + std::to_string(f.value("line", 0)) +
            "): " + std::to_string(f.value("compiles", 0)) + " compiles";
    for (const json& r : reasons)
      if (r.is_string()) text += "\n  guard failed: " + r.get<std::string>();
    text += "\n";
  }
  if (frames.empty())
    text = frame.empty() ? "no frame recompiled" : "no frame named " + frame;
  return {text, json{{"frames", frames}, {"recompiles", summary.value("recompiles", 0)}}};
}

ToolAnswer compare_runs(const ToolContext& context, const json& arguments) {
  const std::string a = run_database(context, arguments, "a");
  const std::string b = run_database(context, arguments, "b");
  const json comparison = backend(context.compare_json, "compare")(a, b);
  std::string text;
  for (const json& line : comparison.value("verdict", json::array())) {
    if (!text.empty()) text += '\n';
    text += line.is_string() ? line.get<std::string>() : line.dump();
  }
  if (text.empty()) text = "no differences";
  return {text, comparison};
}

ToolAnswer query(const ToolContext& context, const json& arguments) {
  const std::string sql = string_argument(arguments, "sql", true);
  const int64_t rows = integer_argument(arguments, "max_rows", kDefaultQueryRows);
  if (rows < 1 || rows > kMaxQueryRows)
    throw ToolError("max_rows must be between 1 and " + std::to_string(kMaxQueryRows));
  const json result = backend(context.query_json, "query")(run_database(context, arguments, "path"),
                                                          sql, static_cast<size_t>(rows));
  std::string text = std::to_string(result.value("rows", json::array()).size()) + " row(s)";
  if (result.value("truncated", false)) text += " (cut at max_rows)";
  return {text, result};
}

ToolAnswer show_compile(const ToolContext& context, const json& arguments) {
  const std::string compile_id = string_argument(arguments, "compile_id", true);
  const int64_t rank = integer_argument(arguments, "rank", -1);
  const json compile = backend(context.compile_json, "show_compile")(
      run_database(context, arguments, "path"), compile_id, static_cast<long>(rank));
  const json& row = compile.value("compile", json::object());
  std::string text = "compile " + compile_id + " of " + row.value("function", "?") + ": " +
                     row.value("status", "?");
  return {text, compile};
}

constexpr const char* kPathSchema =
    R"({"type":"object","properties":{"path":{"type":"string","description":"a TORCH_TRACE log file, a folder of rank logs, or a tlscope database"}},"required":["path"]})";

const std::vector<ToolSpec> kTools = {
    {"summarize_run", "Summarize a run",
     "What happened in one torch.compile run: torch version, ranks, compiles (attempted, "
     "completed, failed, unfinished, restarts), recompiles, graph breaks, frames with their "
     "recompile reasons, and findings. The same JSON as `tlscope summary --format json`.",
     kPathSchema, summarize_run},
    {"list_findings", "List findings",
     "The run's findings (compile failures, recompiles, graph breaks, desyncs, stragglers, hangs, "
     "...), optionally only one kind or one rank.",
     R"({"type":"object","properties":{"path":{"type":"string"},"kind":{"type":"string","description":"e.g. recompile, graph_break, compile_failure, desync, straggler"},"rank":{"type":"integer","minimum":0}},"required":["path"]})",
     list_findings},
    {"explain_recompiles", "Explain recompiles",
     "Which frames recompiled and the guard that failed each time; optionally one frame, named by "
     "its function or function:line.",
     R"({"type":"object","properties":{"path":{"type":"string"},"frame":{"type":"string"}},"required":["path"]})",
     explain_recompiles},
    {"compare_runs", "Compare two runs",
     "What changed between run a (before) and run b (after): frames, compiles, recompiles and "
     "their guards, graph breaks, cache, compile time per phase, environment, collectives. The "
     "same JSON as `tlscope compare A B --format json`.",
     R"({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"]})",
     compare_runs},
    {"query", "SQL query (read-only)",
     "Runs read-only SQL on the run's tlscope database (tables in docs/schema.md: events, "
     "compiles, findings, graph_breaks, recompiles, ...). Statements that write are refused; rows "
     "are cut at max_rows (default 200).",
     R"({"type":"object","properties":{"path":{"type":"string"},"sql":{"type":"string"},"max_rows":{"type":"integer","minimum":1,"maximum":10000}},"required":["path","sql"]})",
     query},
    {"show_compile", "Show one compile",
     "One compile's status, failure, recompile reason, metrics, and the text of its graphs, "
     "guards and generated code (each clipped at 64 KiB). compile_id as PyTorch writes it, e.g. "
     "\"0/1\"; rank picks one rank's compile in a multi-rank run.",
     R"({"type":"object","properties":{"path":{"type":"string"},"compile_id":{"type":"string"},"rank":{"type":"integer","minimum":0}},"required":["path","compile_id"]})",
     show_compile},
};

}  // namespace

const std::vector<ToolSpec>& tool_specs() { return kTools; }

const ToolSpec* find_tool(const std::string& name) {
  for (const ToolSpec& t : kTools)
    if (name == t.name) return &t;
  return nullptr;
}

}  // namespace tlscope::cli::mcp
