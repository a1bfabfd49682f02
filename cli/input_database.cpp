// Resolving a reading command's inputs, and telling the user which database it reads.
#include "input_database.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "invocation.hpp"
#include "progress_line.hpp"
#include "run_history.hpp"
#include "terminal_text.hpp"
#include "tlscope/model/input_cache.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::cli {

CLI::Option* add_read_inputs(CLI::App* cmd, ReadInputs& inputs) {
  CLI::Option* positional = cmd->add_option(
      "inputs", inputs.paths,
      "A tlscope database, or TORCH_TRACE log files, rank directories, .gz (ingested once into "
      "the cache, reused while unchanged), or a run `tlscope run` recorded: @1 (the newest), "
      "@2, ..., or its id (tlscope runs)");
  cmd->add_option("--db", inputs.db,
                  "Database to ingest the logs into (default: one per set of inputs in "
                  "$XDG_CACHE_HOME/tlscope); alone, the database to read");
  return positional;
}

namespace {

model::ResolveOptions read_options(const ReadInputs& inputs) {
  model::ResolveOptions options;
  options.db_path = inputs.db;
  options.jobs = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
  options.page_cache_kib = inputs.page_cache_kib;
  options.queue_depth = inputs.queue_depth;
  return options;
}

// `--db FILE` without inputs names the database itself; `@1`, `@2`, ... a run `tlscope run`
// recorded (run_history.hpp). nullopt with `error` set when a run reference names no run.
std::optional<std::vector<std::string>> read_input_paths(const ReadInputs& inputs,
                                                         model::ResolveOptions& o,
                                                         std::string& error) {
  std::vector<std::string> paths = inputs.paths;
  for (std::string& path : paths) {
    if (std::optional<std::string> trace = resolve_run_reference(path, error)) {
      if (trace->empty()) return std::nullopt;
      path = *trace;
    }
  }
  if (paths.empty() && !inputs.db.empty()) {
    paths.push_back(inputs.db);
    o.db_path.clear();
  }
  return paths;
}

model::ResolvedDatabase resolve_with(const ReadInputs& inputs, model::ResolveOptions& options) {
  std::string error;
  std::optional<std::vector<std::string>> paths = read_input_paths(inputs, options, error);
  if (!paths) {
    model::ResolvedDatabase refused;
    refused.error = error;
    return refused;
  }
  return model::resolve_input_database(*paths, options);
}

}  // namespace

model::ResolvedDatabase resolve_read_inputs_quietly(
    const ReadInputs& inputs, std::function<void(const model::IngestProgress&)> progress) {
  model::ResolveOptions options = read_options(inputs);
  options.progress = std::move(progress);
  return resolve_with(inputs, options);
}

std::optional<std::string> report_resolved(const char* command, const model::ResolvedDatabase& r) {
  note_inputs(r.files);
  if (!r.note.empty()) std::fprintf(stderr, "tlscope %s: note: %s\n", command, r.note.c_str());
  if (!r.ok) {
    std::fprintf(stderr, "tlscope %s: %s\n", command, terminal_safe(r.error).c_str());
    return std::nullopt;
  }
  note_database(r.path);
  if (r.ingested) {
    std::fprintf(stderr,
                 "tlscope %s: ingested %zu file(s), %llu events, %llu input errors in %.2f s "
                 "-> %s\n",
                 command, r.ingest.files.size(), static_cast<unsigned long long>(r.ingest.events),
                 static_cast<unsigned long long>(r.ingest.errors), r.ingest.seconds,
                 r.path.c_str());
  }
  return r.path;
}

std::optional<std::string> resolve_read_database(const char* command, const ReadInputs& inputs,
                                                 bool for_a_person) {
  model::ResolveOptions options = read_options(inputs);
  ProgressLine line(for_a_person);
  if (line.enabled()) {
    options.progress = [&line](const model::IngestProgress& p) {
      line.show("ingesting", p.bytes_done, p.bytes_total, "bytes");
    };
  }
  model::ResolvedDatabase r = resolve_with(inputs, options);
  line.clear();
  return report_resolved(command, r);
}

bool print_input_problems(const char* command, const std::vector<std::string>& paths) {
  // Only what the command line named: a FIFO inside a rank directory is skipped by the ingest
  // itself (reported, exit 2) while the directory's other logs are read.
  parser::InputPlan plan = parser::plan_inputs(paths);
  for (const std::string& problem : plan.problems)
    std::fprintf(stderr, "tlscope %s: %s\n", command, problem.c_str());
  return !plan.problems.empty();
}

std::vector<std::string> read_paths(const ReadInputs& inputs) {
  std::vector<std::string> paths = inputs.paths;
  if (!inputs.db.empty()) paths.push_back(inputs.db);
  return paths;
}

}  // namespace tlscope::cli
