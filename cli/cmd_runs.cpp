// `tlscope runs [--format table|json|markdown]`: the runs `tlscope run` recorded, newest first,
// as `@N` references for compare and every reading command.
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "markdown_table.hpp"
#include "run_history.hpp"
#include "terminal_text.hpp"

namespace tlscope::cli {
namespace {

struct RunsArgs {
  std::string format = "table";
};

std::string started_text(int64_t started) {
  const std::time_t t = static_cast<std::time_t>(started);
  std::tm tm{};
  localtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

std::string command_text(const RunRecord& r) {
  std::string out;
  for (const std::string& a : r.command) out += (out.empty() ? "" : " ") + a;
  return out;
}

std::string commit_text(const RunRecord& r) {
  if (r.git_commit.empty()) return "-";
  return r.git_commit.substr(0, 12) + (r.git_dirty.value_or(false) ? "+dirty" : "");
}

std::string status_text(const RunRecord& r) {
  return r.exit_status < 0 ? std::string("?") : std::to_string(r.exit_status);
}

nlohmann::json runs_json(const std::vector<RunRecord>& runs) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& r = runs[i];
    list.push_back(
        {{"ref", "@" + std::to_string(i + 1)},
         {"id", r.id},
         {"started", r.started},
         {"seconds", r.seconds < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.seconds)},
         {"exit_status",
          r.exit_status < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.exit_status)},
         {"command", r.command},
         {"cwd", r.cwd},
         {"git_commit",
          r.git_commit.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.git_commit)},
         {"git_dirty", r.git_dirty ? nlohmann::json(*r.git_dirty) : nlohmann::json(nullptr)},
         {"torch_version",
          r.torch_version.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.torch_version)},
         {"trace", r.trace_dir},
         {"bytes", r.bytes}});
  }
  return nlohmann::json{{"schema", "tlscope.runs/1"}, {"runs", list}};
}

int run_runs(const RunsArgs& args) {
  std::string error;
  if (runs_folder(error).empty()) {
    std::fprintf(stderr, "tlscope runs: %s\n", terminal_safe(error).c_str());
    return kUsageOrIo;
  }
  const std::vector<RunRecord> runs = list_runs();
  if (args.format == "json") {
    const std::string text =
        runs_json(runs).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::printf("%s\n", text.c_str());
    return kOk;
  }
  const bool markdown = args.format == "markdown";
  if (runs.empty()) {
    std::printf("%s\n", markdown ? "_No recorded runs._"
                                 : "no recorded runs: `tlscope run -- CMD` records one");
    return kOk;
  }
  MarkdownTable table({"ref", "id", "started", "exit", "seconds", "git", "torch", "command"});
  if (!markdown)
    std::printf("%-4s %-22s %-19s %4s %8s %-18s %-10s %s\n", "ref", "id", "started", "exit",
                "seconds", "git", "torch", "command");
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& r = runs[i];
    char seconds[32] = "?";
    if (r.seconds >= 0) std::snprintf(seconds, sizeof seconds, "%.1f", r.seconds);
    const std::string torch = r.torch_version.empty() ? "-" : r.torch_version;
    const std::string ref = "@" + std::to_string(i + 1);
    if (markdown) {
      table.row({ref, markdown_text(r.id), started_text(r.started), status_text(r), seconds,
                 markdown_text(commit_text(r)), markdown_text(torch),
                 markdown_text(command_text(r))});
    } else {
      std::printf("%-4s %-22s %-19s %4s %8s %-18s %-10s %s\n", ref.c_str(), r.id.c_str(),
                  started_text(r.started).c_str(), status_text(r).c_str(), seconds,
                  commit_text(r).c_str(), terminal_safe(torch).c_str(),
                  terminal_safe(command_text(r)).c_str());
    }
  }
  if (markdown) std::fputs(table.text().c_str(), stdout);
  return kOk;
}

CommandRegistration runs_registration{
    46, [](CLI::App& app, int& exit_code) {
      auto args = std::make_shared<RunsArgs>();
      CLI::App* cmd = app.add_subcommand(
          "runs", "List the runs `tlscope run` recorded, newest first (@1, @2, ... for compare)");
      cmd->add_option("--format", args->format, "table, json (docs/json.md) or markdown")
          ->check(CLI::IsMember({"table", "json", "markdown"}));
      cmd->callback([args, &exit_code] { exit_code = run_runs(*args); });
    }};

}  // namespace
}  // namespace tlscope::cli
