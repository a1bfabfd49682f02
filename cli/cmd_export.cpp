// `tlscope export chrome-trace DB -o trace.json`: Chrome trace JSON (pid = rank) for Perfetto
// and chrome://tracing.
#include <cstdio>

#include "command.hpp"
#include "input_database.hpp"
#include "output_paths.hpp"
#include "terminal_text.hpp"
#include "tlscope/exporters/chrome_trace.hpp"

namespace tlscope::cli {

namespace {

struct ExportArgs {
  ReadInputs inputs;
  std::string out;
};

CommandRegistration export_registration(50, [](CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("export", "Export a database to other tools' formats");
  cmd->require_subcommand(1);
  auto args = std::make_shared<ExportArgs>();
  CLI::App* chrome =
      cmd->add_subcommand("chrome-trace", "Chrome trace JSON (Perfetto, chrome://tracing)");
  add_read_inputs(chrome, args->inputs);
  chrome->add_option("-o,--out", args->out, "Output .json file")->required();
  chrome->callback([args, &exit_code] {
    if (refuse_output_over_input("export chrome-trace", args->out, read_paths(args->inputs))) {
      exit_code = kUsageOrIo;
      return;
    }
    auto db = resolve_read_database("export chrome-trace", args->inputs);
    if (!db) {
      exit_code = kUsageOrIo;
      return;
    }
    exporters::ChromeTraceResult r = exporters::export_chrome_trace(*db, args->out);
    if (!r.ok) {
      std::fprintf(stderr, "tlscope export chrome-trace: %s\n", r.error.c_str());
      exit_code = kUsageOrIo;
      return;
    }
    std::fprintf(status_stream_for(args->out), "wrote %llu trace events to %s\n",
                 static_cast<unsigned long long>(r.events), terminal_safe(args->out).c_str());
  });
});

}  // namespace

}  // namespace tlscope::cli
