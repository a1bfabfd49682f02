// `tlscope rage --command K`: the bug bundle of one recorded tlscope invocation
// (command_log/command_log.hpp): its record, its inputs (redacted, each cut at a size cap, the cut
// written down), its database (a redacted copy) and the report of it when they exist, and the
// environment.
#pragma once

#include <cstdint>
#include <string>

#include "tlscope/command_log/command_log.hpp"
#include "tlscope/exporters/rage/rage.hpp"

namespace tlscope::exporters::rage {

using command_log::CommandRecord;

struct CommandBundleOptions {
  CommandRecord record;
  // Passed on as they are (out_path, redaction, environment, jobs, with_report, compression,
  // progress); run, db_path, source_description and extra_files are filled from the record.
  RageOptions rage;
  uint64_t max_input_bytes = 64ull << 20;  // per input log; larger ones are cut at a line end
};

RageResult write_command_bundle(const CommandBundleOptions& options);

// The inputs a record names: the ones the command noted, else the log files and folders in its
// argv that still exist (relative to its cwd); directories are expanded as ingest does.
std::vector<std::string> command_inputs(const CommandRecord& record);
// The record's database when it still exists: the noted one, else a database named in argv.
std::string command_database(const CommandRecord& record);

}  // namespace tlscope::exporters::rage
