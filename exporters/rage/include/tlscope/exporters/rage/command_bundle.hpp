// `tlscope rage --command K`: the bug bundle of one recorded tlscope invocation (command_log.hpp):
// its record, its inputs (redacted, each cut at a size cap, the cut written down), its database
// (a redacted copy) and the report of it when they exist, and the environment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/exporters/rage/command_log.hpp"
#include "tlscope/exporters/rage/rage.hpp"

namespace tlscope::exporters::rage {

struct CommandBundleOptions {
  CommandRecord record;
  // Passed on as they are (out_path, redaction, environment, jobs, with_report, compression,
  // progress); run, db_path, source_description and extra_files are filled from the record.
  RageOptions rage;
  uint64_t max_input_bytes = 64ull << 20;  // per input log; larger ones are cut at a line end
  // Files the user names explicitly (`--include PATH`): bundled, redacted, under extra/. The only
  // way a file that is not a trace log gets into a command bundle.
  std::vector<std::string> include;
  // Leave out the inputs that are not trace logs (`--logs-only`) instead of refusing.
  bool logs_only = false;
};

// What a command bundle would hold, decided before anything is written (`--dry-run` prints it).
struct CommandBundlePlan {
  std::vector<std::string> logs;  // inputs that read as TORCH_TRACE logs: bundled, redacted
  // Bundled as a redacted copy; empty when none, or when files were left out (it holds their
  // text too): the bundle then ingests its own database from the logs.
  std::string database;
  std::vector<std::string> included;  // named with --include: bundled, redacted, under extra/
  // Inputs the command named or read that are not trace logs, "path: why". Never bundled: with
  // logs_only they are left out, else `refusal` says which flag decides.
  std::vector<std::string> not_logs;
  std::string refusal;  // non-empty: the bundle is refused, and this says why and which flag
};

CommandBundlePlan plan_command_bundle(const CommandBundleOptions& options);
// The plan as the lines `rage --command K --dry-run` prints: each member of the bundle and where
// it comes from, then what is left out.
std::string describe_command_bundle(const CommandBundleOptions& options,
                                    const CommandBundlePlan& plan);

RageResult write_command_bundle(const CommandBundleOptions& options);

// The inputs a record names: the ones the command noted, else the log files and folders among
// tlscope's own arguments that still exist (relative to its cwd; never the program `tlscope run`
// ran, nor its arguments); directories are expanded as ingest does. Not yet checked to be logs.
std::vector<std::string> command_inputs(const CommandRecord& record);
// The record's database when it still exists: the noted one, else a database among tlscope's
// own arguments (not `tlscope run`'s program's).
std::string command_database(const CommandRecord& record);
// The record's argv with the values of secret-named options redacted (`--password X`, `-p X`,
// `--api-key X`, `--token=X`) and every argument through the redactor: what command.json holds.
std::vector<std::string> redacted_command_line(const std::vector<std::string>& argv,
                                               Redactor& redactor, RedactionCounts& counts);

}  // namespace tlscope::exporters::rage
