// `tlscope rage`: a bug bundle (.tar.gz) a user attaches to a bug report: one run's logs
// (redacted), the database ingested from them, the HTML report, env.txt, manifest.json and a
// README.txt. Secrets are redacted before anything is written (docs/rage.md).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tlscope/exporters/rage/environment.hpp"
#include "tlscope/exporters/rage/redaction.hpp"
#include "tlscope/exporters/rage/trace_runs.hpp"

namespace tlscope::exporters::rage {

struct RunListing {
  std::vector<TraceRun> runs;         // newest first
  std::vector<std::string> problems;  // "path: reason" (missing directory, no logs, read errors)
};

// The runs of a TORCH_TRACE directory. With `scan`, every file is read to count its records,
// compiles and failures; `progress` gets (bytes read, bytes total).
RunListing list_runs(const std::string& dir, const RunGrouping& grouping, bool scan,
                     const std::function<void(uint64_t, uint64_t)>& progress = {});

struct RageOptions {
  // What to bundle: the files of one run (explicit log files, or a run picked from a directory
  // by the caller), or a tlscope database (then `db_path` is set and `run` may be empty).
  TraceRun run;
  std::string db_path;
  std::string source_description;  // e.g. "run 0 of 3 in /tmp/trace" (redacted before use)
  std::string out_path;            // the .tar.gz to write (replaced atomically)
  RedactionOptions redaction;
  EnvironmentOptions environment;
  unsigned jobs = 1;  // ingest threads
  bool with_report = true;
  int compression_level = 6;  // gzip 1 (fastest) to 9 (smallest)
  // Called with a stage name and (done, total) units of that stage.
  std::function<void(std::string_view, uint64_t, uint64_t)> progress;
};

struct RageResult {
  bool ok = false;
  std::string error;               // names the file at fault
  std::vector<std::string> notes;  // things the user should know (not failures)
  uint64_t bundle_bytes = 0;       // compressed size of the .tar.gz
  uint64_t archived_bytes = 0;     // uncompressed bytes of the files inside
  size_t entries = 0;              // files in the archive
  uint64_t events = 0, ingest_errors = 0;
  RedactionCounts counts;  // everything redacted: logs, env, database
  double seconds = 0;
  struct Stage {
    std::string name;          // redact, database, report, environment, archive
    double wall = 0, cpu = 0;  // seconds; cpu is user + system of the whole process
  };
  std::vector<Stage> stages;
};

RageResult write_rage_bundle(const RageOptions& options);

}  // namespace tlscope::exporters::rage
