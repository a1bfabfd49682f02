// Subcommands register themselves here (one cmd_*.cpp per subcommand), so adding a command never
// touches main.cpp. Exit codes: 0 ok, 1 input errors under --strict, 2 usage or I/O errors.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace tlscope::cli {

enum ExitCode : int { kOk = 0, kInputErrors = 1, kUsageOrIo = 2 };

// Adds a subcommand to `app`; the callback it installs stores its exit code in `exit_code`.
using CommandSetup = std::function<void(CLI::App& app, int& exit_code)>;

struct CommandRegistration {
  CommandRegistration(int order, CommandSetup setup);
};

std::vector<std::pair<int, CommandSetup>>& command_registry();

// Parses and runs `tlscope ARGS...` (without the program name) in this process, as main does;
// returns its exit code. `tlscope run` prints its summary through it.
int run_subcommand(std::vector<std::string> args);

}  // namespace tlscope::cli
