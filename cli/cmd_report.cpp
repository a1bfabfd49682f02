// `tlscope report INPUTS... [-o DIR] [--open]`: the static HTML report of a database, or of logs
// (ingested once into the cache, see input_database.hpp). Without -o it goes to ./tlscope-report,
// as tlparse writes to a default folder. `tlscope INPUTS...` with no command runs it too.
#include <memory>

#include "command.hpp"
#include "input_database.hpp"
#include "output_paths.hpp"
#include "report_folder.hpp"
#include "tlscope/exporters/report.hpp"

namespace tlscope::cli {
namespace {

struct ReportArgs {
  ReadInputs inputs;
  ReportFolderOptions folder;
};

CommandRegistration report_registration(40, [](CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand("report", "Write a static HTML report (works from file://)");
  add_read_inputs(cmd, args->inputs);
  cmd->add_option("-o,--out", args->folder.out_dir,
                  "Output folder (default ./tlscope-report; a folder that is not a tlscope "
                  "report is refused)");
  cmd->add_flag("--open", args->folder.open, "Open index.html in the default browser");
  cmd->add_option("--rows-per-page", args->folder.rows_per_page, "Rows per table page")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", args->folder.threads,
                  "Threads writing pages (default: one per core, up to 8, for a database over "
                  "16 MiB; one below)")
      ->check(CLI::Range(size_t{1}, exporters::kMaxReportThreads));
  cmd->callback([args, &exit_code] {
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
    exit_code = write_report_folder(args->folder);
  });
});

}  // namespace
}  // namespace tlscope::cli
