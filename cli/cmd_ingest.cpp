// `tlscope ingest PATH... --db FILE`: read trace logs into the SQLite database.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "input_database.hpp"
#include "progress_line.hpp"
#include "terminal_text.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/views/store_health.hpp"

namespace tlscope::cli {
namespace {

struct IngestArgs {
  std::vector<std::string> paths;
  std::string db;
  bool strict = false;
  bool analyze = true;
  unsigned jobs = 1;
};

// Builds the analysis tables, as `tlscope analyze` does; false (message printed) on failure.
bool run_analysis(const std::string& path) {
  try {
    // The ingested rows are committed: a kill during the analysis must not damage them.
    auto report = model::analysis::analyze_database(path);
    if (!report.ok) {
      std::fprintf(stderr, "tlscope ingest: %s: analysis failed: %s\n", path.c_str(),
                   report.error.c_str());
      return false;
    }
    std::printf("analyzed in %.2f s (tlscope summary %s)\n", report.seconds, path.c_str());
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlscope ingest: %s: analysis failed: %s\n", path.c_str(), e.what());
    return false;
  }
}

int run_ingest(const IngestArgs& args) {
  // Inputs that cannot be read are refused before the database is touched: no empty database
  // and no "0 file(s) ingested" line for a mistyped path.
  if (print_input_problems("ingest", args.paths)) return kUsageOrIo;
  model::IngestOptions options;
  options.jobs = args.jobs;
  // The bar of every long step (progress_line.hpp): only on a terminal.
  auto bar = std::make_shared<ProgressLine>();
  if (bar->enabled()) {
    options.progress = [bar](const model::IngestProgress& p) {
      bar->show("ingesting", p.bytes_done, p.bytes_total, "bytes");
    };
  }
  model::IngestResult result;
  try {
    result = model::ingest(args.db, args.paths, options);
  } catch (const std::exception& e) {
    bar->clear();
    std::fprintf(stderr, "tlscope ingest: %s: %s\n", args.db.c_str(), e.what());
    return kUsageOrIo;
  }
  bar->clear();
  for (const auto& leftover : result.removed_leftovers) {
    std::fprintf(stderr, "tlscope ingest: removed %s, left by an interrupted ingest\n",
                 leftover.c_str());
  }
  for (const auto& path : result.replaced) {
    std::fprintf(stderr,
                 "tlscope ingest: %s: its earlier ingest did not complete; its rows were "
                 "replaced\n",
                 path.c_str());
  }

  size_t stored = 0, duplicates = 0, incomplete = 0;
  for (const auto& f : result.files) {
    if (!f.duplicate_of.empty()) {
      ++duplicates;
      std::fprintf(stderr, "tlscope ingest: %s: same content as %s, not ingested again\n",
                   f.path.c_str(), f.duplicate_of.c_str());
    } else {
      ++stored;
      if (!f.completed) {
        ++incomplete;
        std::fprintf(stderr, "tlscope ingest: %s: reading stopped early (see ingest_errors)\n",
                     f.path.c_str());
      }
    }
  }
  for (const auto& problem : result.problems) {
    std::fprintf(stderr, "tlscope ingest: %s\n", problem.c_str());
  }
  double mb = result.bytes / 1e6;
  std::printf("%zu file(s) ingested", stored);
  if (duplicates) std::printf(", %zu duplicate(s) skipped", duplicates);
  std::printf(
      ", %llu events, %llu errors, %.1f MB in %.2f s (%.1f MB/s; writer thread %.2f CPU-s,"
      " indexes %.2f s) -> %s\n",
      static_cast<unsigned long long>(result.events),
      static_cast<unsigned long long>(result.errors), mb, result.seconds,
      result.seconds > 0 ? mb / result.seconds : 0.0, result.writer_cpu_seconds,
      result.index_seconds, args.db.c_str());
  if (args.analyze && !run_analysis(args.db)) return kUsageOrIo;
  if (!args.analyze) {
    // The analysis tables of an earlier ingest no longer cover every file: say so now.
    views::StoreHealth health = views::store_health(views::Database(args.db));
    if (health.analysis == views::StoreHealth::Analysis::kStale) {
      health.incomplete_files.clear();  // already reported above, file by file
      for (const std::string& w : health.warnings(args.db))
        std::fprintf(stderr, "tlscope ingest: note: %s\n", terminal_safe(w).c_str());
    }
  }
  if (!result.problems.empty() || incomplete > 0) return kUsageOrIo;
  if (args.strict && result.errors > 0) {
    std::fprintf(stderr, "tlscope ingest: --strict: %llu input error(s) (tlscope summary %s)\n",
                 static_cast<unsigned long long>(result.errors), args.db.c_str());
    return kInputErrors;
  }
  return kOk;
}

CommandRegistration ingest_registration{
    10, [](CLI::App& app, int& exit_code) {
      auto args = std::make_shared<IngestArgs>();
      CLI::App* cmd = app.add_subcommand(
          "ingest",
          "Read TORCH_TRACE logs (files, rank directories, - for stdin, .gz) into SQLite");
      cmd->add_option("paths", args->paths, "Log files, directories of rank logs, or - for stdin")
          ->required();
      cmd->add_option("--db", args->db, "Database file to create or add to")->required();
      cmd->add_flag("--strict", args->strict, "Exit 1 when any input line could not be read");
      cmd->add_flag("!--no-analyze", args->analyze,
                    "Skip building the analysis tables (run `tlscope analyze DB` later)");
      cmd->add_option("--jobs", args->jobs, "Parse threads (files are parsed in parallel)")
          ->check(CLI::Range(1, 64));
      cmd->callback([args, &exit_code] { exit_code = run_ingest(*args); });
    }};

}  // namespace
}  // namespace tlscope::cli
