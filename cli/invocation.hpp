// This run of tlscope as its command log records it (command_log/command_log.hpp): argv, cwd,
// version, exit status, duration, the inputs, database and report it used, and the tail of what
// it wrote to stderr. Recording never fails a command: a log that cannot be written gives one
// warning and the command goes on.
#pragma once

#include <string>
#include <vector>

namespace tlscope::cli {

// Writes the record (no exit status yet: a crash leaves it so) and starts keeping stderr's tail.
// TLSCOPE_COMMAND_LOG=off turns recording off.
void begin_invocation(int argc, char** argv, const char* version);
// Rewrites the record with the exit status and duration; returns `exit_code`.
int end_invocation(int exit_code);

// This run's command line as a shell would take it back (arguments quoted where needed), kept
// whether or not recording is on: the report states it.
std::string invocation_command_line();

// What the command read and wrote, for `tlscope rage --command K`.
void note_inputs(const std::vector<std::string>& log_files);
void note_database(const std::string& path);
void note_report(const std::string& dir);

}  // namespace tlscope::cli
