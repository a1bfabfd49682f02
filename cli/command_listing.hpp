// `tlscope rage --commands --format json|markdown`: tlscope's recorded invocations (the listing
// the terminal table shows) for a script or a bug report (docs/json.md, "rage --commands").
// Plain functions of the listing, so tests/cli checks them without a command log on disk.
#pragma once

#include <string>
#include <vector>

#include "tlscope/command_log/command_log.hpp"

namespace tlscope::cli {

inline constexpr const char* kCommandsSchema = "tlscope.commands/1";
inline constexpr const char* kCommandsMarkdownSchema = "tlscope.commands.md/1";

// One listed record and what became of it: "exited" (it has an exit status), "running" (its
// process is alive) or "died" (killed or crashed before it ended). K is its place in the list.
struct ListedCommand {
  const command_log::CommandRecord* record = nullptr;
  std::string state;
};

// The words the listings use for a state without an exit status.
std::string command_state(const command_log::CommandRecord& r, bool alive);

// The command line as a person would type it (argv[0] by its file name, an argument with
// blanks or quotes in single quotes), the log's bytes as they are: each format escapes it.
std::string command_line_words(const command_log::CommandRecord& r);

std::string commands_json(const std::string& log_dir, const std::vector<ListedCommand>& listed,
                          const std::vector<std::string>& problems);
std::string commands_markdown(const std::string& log_dir, const std::vector<ListedCommand>& listed);

}  // namespace tlscope::cli
