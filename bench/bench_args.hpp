// Argument parsing shared by the bench tools: CLI11, with the tlscope command's exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>

namespace tlscope::bench {

// nullopt when the program should go on; otherwise its exit code: 0 after --help, 2 for an
// unknown option or a missing argument (CLI11 has already printed the message).
inline std::optional<int> parse_args(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return std::nullopt;
}

}  // namespace tlscope::bench
