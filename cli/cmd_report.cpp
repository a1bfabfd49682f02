// `tlscope report INPUTS... [-o DIR] [--open]`: the static HTML report of a database, or of logs
// (ingested once into the cache, see input_database.hpp). Without -o it goes to ./tlscope-report,
// as tlparse writes to a default folder. `tlscope INPUTS...` with no command runs it too.
// `--serve [--port N]` then serves the folder on 127.0.0.1 until Ctrl-C (report_server.hpp).
#include <memory>

#include "command.hpp"
#include "input_database.hpp"
#include "output_paths.hpp"
#include "report_folder.hpp"
#include "report_server.hpp"
#include "tlscope/exporters/report.hpp"

namespace tlscope::cli {
namespace {

struct ReportArgs {
  ReadInputs inputs;
  ReportFolderOptions folder;
  bool serve = false;
  int port = kDefaultServePort;
};

CommandRegistration report_registration(40, [](CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand("report", "Write a static HTML report (works from file://)");
  add_read_inputs(cmd, args->inputs);
  cmd->add_option("-o,--out", args->folder.out_dir,
                  "Output folder (default ./tlscope-report; a folder that is not a tlscope "
                  "report is refused)");
  cmd->add_flag("--open", args->folder.open,
                "Open index.html in the default browser (with --serve, its URL)");
  CLI::Option* serve = cmd->add_flag(
      "--serve", args->serve,
      "Then serve the report over HTTP on 127.0.0.1 until Ctrl-C (for an ssh tunnel)");
  cmd->add_option("--port", args->port,
                  "Port for --serve (default 8000, a free one when 8000 is busy; 0: a free one)")
      ->check(CLI::Range(0, 65535))
      ->needs(serve);
  cmd->add_option("--rows-per-page", args->folder.rows_per_page, "Rows per table page")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", args->folder.threads,
                  "Threads writing pages (default: one per core, up to 8, for a database over "
                  "16 MiB; one below)")
      ->check(CLI::Range(size_t{1}, exporters::kMaxReportThreads));
  cmd->callback([args, cmd, &exit_code] {
    if (refuse_output_over_input("report", args->folder.out_dir, read_paths(args->inputs))) {
      exit_code = kUsageOrIo;
      return;
    }
    auto db = resolve_read_database("report", args->inputs);
    if (!db) {
      exit_code = kUsageOrIo;
      return;
    }
    args->folder.db_path = *db;
    ReportFolderOptions folder = args->folder;
    folder.open = folder.open && !args->serve;
    exit_code = write_report_folder(folder);
    if (exit_code != kOk || !args->serve) return;
    ServeOptions serve_options;
    serve_options.folder = folder.out_dir.empty() ? kDefaultReportDir : folder.out_dir;
    serve_options.port = args->port;
    serve_options.port_given = cmd->count("--port") > 0;
    if (args->folder.open) serve_options.on_listening = open_in_browser;
    exit_code = serve_folder(serve_options);
  });
});

}  // namespace
}  // namespace tlscope::cli
