// `tlscope analyze DB`: (re)builds the analysis tables of an ingested database.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "command.hpp"
#include "tlscope/model/analysis/analyze.hpp"

namespace tlscope::cli {
namespace {

struct AnalyzeOptions {
  std::string db;
  bool timings = false;
};

int run_analyze(const AnalyzeOptions& options) {
  if (!std::filesystem::is_regular_file(options.db)) {
    std::fprintf(stderr, "tlscope analyze: %s: no such database file\n", options.db.c_str());
    return kUsageOrIo;
  }
  model::analysis::AnalysisReport report;
  try {
    // The database holds what earlier ingests wrote: a kill during the analysis must roll back
    // to it, never damage it (the first write of the WAL pragma also refuses a non-database).
    report = model::analysis::analyze_database(options.db);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlscope analyze: %s: %s\n", options.db.c_str(), e.what());
    return kUsageOrIo;
  }
  if (!report.ok) {
    std::fprintf(stderr, "tlscope analyze: %s: %s\n", options.db.c_str(), report.error.c_str());
    return kUsageOrIo;
  }
  std::printf("analyzed %s in %.3f s\n", options.db.c_str(), report.seconds);
  for (const auto& [table, rows] : report.table_rows)
    std::printf("  %-26s %lld rows\n", table.c_str(), static_cast<long long>(rows));
  if (options.timings) {
    for (const auto& [pass, seconds] : report.pass_seconds)
      std::printf("  pass %-21s %.3f s\n", pass.c_str(), seconds);
  }
  return kOk;
}

CommandRegistration analyze_registration(30, [](CLI::App& app, int& exit_code) {
  auto options = std::make_shared<AnalyzeOptions>();
  auto* cmd = app.add_subcommand("analyze",
                                 "Rebuild the analysis tables (findings, compiles, "
                                 "graph breaks, collectives, ...) of an ingested DB");
  cmd->add_option("db", options->db, "SQLite database written by `tlscope ingest`")->required();
  cmd->add_flag("--timings", options->timings, "Print the time of each analysis pass");
  cmd->callback([options, &exit_code]() { exit_code = run_analyze(*options); });
});

}  // namespace
}  // namespace tlscope::cli
