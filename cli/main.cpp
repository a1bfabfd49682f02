// tlscope: structured-log analysis for torch.compile traces and the bundled tensor runtime.
#include <algorithm>
#include <cstdio>

#include "command.hpp"
#include "tlscope/version.hpp"

namespace tlscope::cli {

std::vector<std::pair<int, CommandSetup>>& command_registry() {
  static std::vector<std::pair<int, CommandSetup>> registry;
  return registry;
}

CommandRegistration::CommandRegistration(int order, CommandSetup setup) {
  command_registry().emplace_back(order, std::move(setup));
}

}  // namespace tlscope::cli

int main(int argc, char** argv) {
  using namespace tlscope::cli;
  CLI::App app{"tlscope: read torch.compile TORCH_TRACE logs into SQLite, analyse, report"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "tlscope " + std::string(tlscope::kVersion));
  int exit_code = kOk;
  auto& registry = command_registry();
  std::stable_sort(registry.begin(), registry.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : registry) setup(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kOk : kUsageOrIo;
  }
  return exit_code;
}
