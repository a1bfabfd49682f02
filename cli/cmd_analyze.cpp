// `tlscope analyze DB`: (re)builds the analysis tables of an ingested database.
#include <sqlite3.h>

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
  sqlite3* raw = nullptr;
  if (sqlite3_open_v2(options.db.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "tlscope analyze: %s: %s\n", options.db.c_str(),
                 raw ? sqlite3_errmsg(raw) : "cannot open");
    sqlite3_close(raw);
    return kUsageOrIo;
  }
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
  // The database is rebuildable from the logs, so the analyses write it the way ingest does.
  sqlite3_exec(raw, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF", nullptr, nullptr, nullptr);
  auto report = model::analysis::analyze(raw);
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
