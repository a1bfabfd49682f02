// The inputs of a reading command (summary, report, export, tensor): log files, rank directories,
// .gz or one database, plus `--db` to name where logs are ingested. One call resolves them to the
// database to read (model/input_cache.hpp), printing what it did and what went wrong.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tlscope/model/input_cache.hpp"

namespace tlscope::cli {

struct ReadInputs {
  std::vector<std::string> paths;
  std::string db;  // --db
  // model::ResolveOptions::page_cache_kib and ::queue_depth: compare's two ingests at once.
  int page_cache_kib = 0;
  size_t queue_depth = 0;
};

// Every path the command reads: the inputs and the --db file (for refusing an output over them).
std::vector<std::string> read_paths(const ReadInputs& inputs);

// Adds the `inputs` positional and `--db` to `cmd`. `--db FILE` alone reads that database.
CLI::Option* add_read_inputs(CLI::App* cmd, ReadInputs& inputs);

// The database to read, or nullopt after printing "tlscope COMMAND: <error>" on stderr.
// Progress and "ingested ..." notes go to stderr, so stdout stays the command's own output; the
// progress line only when `for_a_person` (not in --format json|markdown) and stderr is a terminal.
std::optional<std::string> resolve_read_database(const char* command, const ReadInputs& inputs,
                                                 bool for_a_person = true);

// resolve_read_database in two halves, so that a command can resolve two inputs at once (compare
// ingests A and B on the two cores): the first does the work and prints nothing but the progress
// it is given (`progress` may be empty), the second prints what it did and returns the database,
// or nullopt after printing the error.
model::ResolvedDatabase resolve_read_inputs_quietly(
    const ReadInputs& inputs, std::function<void(const model::IngestProgress&)> progress = nullptr);
std::optional<std::string> report_resolved(const char* command, const model::ResolvedDatabase& r);

// Prints "tlscope COMMAND: path: reason" for every input that does not exist or cannot be listed
// (stdin, "-", is fine); true when there was any.
bool print_input_problems(const char* command, const std::vector<std::string>& paths);

}  // namespace tlscope::cli
