// `tlscope merge SHARD.db... --db ALL.db`: tlscope databases made anywhere (per-rank ingests on
// other machines, a Slurm array's tasks) merged into one, then analysed.
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "terminal_text.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/merge.hpp"
#include "tlscope/model/schema.hpp"

namespace tlscope::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> shards;
  std::string db;
  bool analyze = true;
};

bool analyze_merged(const std::string& path) {
  try {
    model::Connection db(path, model::OpenMode::kReadWrite);
    model::apply_update_pragmas(db);  // a kill during the analysis keeps the merged rows
    auto report = model::analysis::analyze(db.handle());
    model::end_update(db);
    if (!report.ok) {
      std::fprintf(stderr, "tlscope merge: %s: analysis failed: %s\n", path.c_str(),
                   report.error.c_str());
      return false;
    }
    std::printf("analyzed in %.2f s (tlscope summary %s)\n", report.seconds, path.c_str());
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlscope merge: %s: analysis failed: %s\n", path.c_str(), e.what());
    return false;
  }
}

int run_merge(const MergeArgs& args) {
  model::MergeResult result;
  try {
    result = model::merge_databases(args.db, args.shards);
  } catch (const model::MergeRefused& e) {
    std::fprintf(stderr, "tlscope merge: %s\n", terminal_safe(e.what()).c_str());
    return kUsageOrIo;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlscope merge: %s: %s\n", args.db.c_str(),
                 terminal_safe(e.what()).c_str());
    return kUsageOrIo;
  }
  for (const auto& leftover : result.removed_leftovers) {
    std::fprintf(stderr, "tlscope merge: removed %s, left by an interrupted run\n",
                 leftover.c_str());
  }
  size_t stored = 0, duplicates = 0;
  for (const auto& f : result.files) {
    if (!f.duplicate_of.empty()) {
      ++duplicates;
      std::fprintf(stderr, "tlscope merge: %s: same content and rank as %s, not merged again\n",
                   terminal_safe(f.path).c_str(), terminal_safe(f.duplicate_of).c_str());
      continue;
    }
    ++stored;
    if (!f.completed) {
      std::fprintf(stderr, "tlscope merge: %s: its ingest did not complete; merged as incomplete\n",
                   terminal_safe(f.path).c_str());
    }
  }
  std::printf("%zu file(s) merged from %zu database(s)", stored, args.shards.size());
  if (duplicates) std::printf(", %zu duplicate(s) skipped", duplicates);
  std::printf(", %llu events, %llu errors in %.2f s -> %s\n",
              static_cast<unsigned long long>(result.events),
              static_cast<unsigned long long>(result.errors), result.seconds, args.db.c_str());
  if (args.analyze && !analyze_merged(args.db)) return kUsageOrIo;
  return kOk;
}

CommandRegistration merge_registration{
    15, [](CLI::App& app, int& exit_code) {
      auto args = std::make_shared<MergeArgs>();
      CLI::App* cmd = app.add_subcommand(
          "merge", "Merge tlscope databases (e.g. per-rank ingests) into one, then analyse it");
      cmd->add_option("shards", args->shards, "Databases written by `tlscope ingest`")
          ->required();
      cmd->add_option("--db", args->db, "Database file to create or add to")->required();
      cmd->add_flag("!--no-analyze", args->analyze,
                    "Skip building the analysis tables (run `tlscope analyze DB` later)");
      cmd->callback([args, &exit_code] { exit_code = run_merge(*args); });
    }};

}  // namespace
}  // namespace tlscope::cli
