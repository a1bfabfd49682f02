// The recorded commands as JSON and markdown (command_listing.hpp).
#include "command_listing.hpp"

#include <cstdio>
#include <filesystem>

#include "json_writer.hpp"
#include "markdown_table.hpp"

namespace tlscope::cli {

std::string command_state(const command_log::CommandRecord& r, bool alive) {
  if (r.exit_status) return "exited";
  return alive ? "running" : "died";
}

std::string command_line_words(const command_log::CommandRecord& r) {
  std::string text;
  for (size_t i = 0; i < r.argv.size(); ++i) {
    std::string arg = i == 0 ? std::filesystem::path(r.argv[0]).filename().string() : r.argv[i];
    bool plain = !arg.empty() && arg.find_first_of(" \t\"'\\$`") == std::string::npos;
    if (i) text += ' ';
    if (!plain) text += '\'';
    text += arg;
    if (!plain) text += '\'';
  }
  return text;
}

std::string commands_json(const std::string& log_dir, const std::vector<ListedCommand>& listed,
                          const std::vector<std::string>& problems) {
  JsonWriter w;
  w.begin_object();
  w.member("schema", kCommandsSchema);
  w.member("log", log_dir);
  w.key("commands").begin_array();
  for (size_t k = 0; k < listed.size(); ++k) {
    const command_log::CommandRecord& r = *listed[k].record;
    w.begin_object();
    w.member("k", static_cast<int64_t>(k)).member("id", r.id);
    w.member("started_utc", r.started_utc).member("state", listed[k].state);
    w.key("exit_status");
    r.exit_status ? w.value(static_cast<int64_t>(*r.exit_status)) : w.null();
    w.key("seconds");
    r.exit_status ? w.value(r.duration_s) : w.null();
    w.member("version", r.version).member("cwd", r.cwd);
    w.member_strings("argv", r.argv);
    w.member_strings("inputs", r.inputs);
    w.key("database");
    r.database.empty() ? w.null() : w.value(r.database);
    w.key("report");
    r.report.empty() ? w.null() : w.value(r.report);
    w.end_object();
  }
  w.end_array();
  w.member_strings("problems", problems);
  w.end_object();
  return w.finish();
}

std::string commands_markdown(const std::string& log_dir,
                              const std::vector<ListedCommand>& listed) {
  std::string out = "<!-- ";
  out += kCommandsMarkdownSchema;
  out += " -->\n";
  out += "## tlscope commands recorded in " + markdown_text(log_dir) + "\n\n";
  if (listed.empty()) return out + "_No recorded commands._\n";
  MarkdownTable table({"K", "started (UTC)", "exit", "seconds", "command"});
  for (size_t k = 0; k < listed.size(); ++k) {
    const command_log::CommandRecord& r = *listed[k].record;
    char seconds[32] = "";
    if (r.exit_status) std::snprintf(seconds, sizeof seconds, "%.2f", r.duration_s);
    table.row({std::to_string(k), markdown_text(r.started_utc),
               r.exit_status ? std::to_string(*r.exit_status) : listed[k].state, seconds,
               markdown_text(command_line_words(r))});
  }
  return out + table.text();
}

}  // namespace tlscope::cli
