// Bulk ingest of trace logs into a tlscope database: parse threads (one file each) copy events
// into owned batches and hand them through bounded queues to the single SQLite writer thread.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tlscope/model/event_writer.hpp"

namespace tlscope::model {

struct IngestProgress {
  uint64_t bytes_done = 0;   // input bytes whose rows are written
  uint64_t bytes_total = 0;  // sum of the input sizes on disk (0 if unknown: stdin)
  // What is stored so far, for a front end to show while a long ingest runs.
  uint64_t files_done = 0, files_total = 0;
  uint64_t events = 0, errors = 0;
};

struct IngestResult;

struct IngestOptions {
  unsigned jobs = 1;  // parse threads; files are parsed in parallel, written in input order
  // Called on the writer thread after each batch; keep it cheap.
  std::function<void(const IngestProgress&)> progress;
  // Asked on the writer thread after each batch (and by SQLite while indexes are built); true
  // stops the ingest with IngestCancelled. Keep it cheap: an atomic load.
  std::function<bool()> cancelled;
  // A new database only: called with the ingest's own connection and its result so far once
  // every row and index is in, before the file is renamed into place (what it writes is
  // published with the rows; a throw leaves no database, as a failed ingest does, and reaches
  // ingest()'s caller). It saves reopening the file and reading its schema again, for work such
  // as the analysis. Not called for an append.
  std::function<void(Connection&, const IngestResult&)> before_publish;
  // SQLite's page cache for the load, in KiB; 0 keeps the bulk-load default (64 MiB,
  // apply_bulk_load_pragmas). A process that runs two ingests side by side (compare) gives each
  // a share, so that the two together stay near the RSS one ingest is allowed.
  int page_cache_kib = 0;
  // Parsed batches (4 MiB arenas) each file's queue holds for the writer; 0: the default (4).
  // Fewer cost the parse thread waits on the writer; two ingests side by side take 2.
  size_t queue_depth = 0;
};

// Thrown by ingest() when options.cancelled said stop. What was there before is kept as if the
// ingest had never run: a new database never appears at its path, and an append's files of this
// run are taken out again (a file stored incomplete earlier and replaced by this run stays gone).
struct IngestCancelled : std::runtime_error {
  explicit IngestCancelled(const std::string& db_path)
      : std::runtime_error(db_path + ": ingest cancelled") {}
};

struct IngestResult {
  std::vector<FileOutcome> files;
  std::vector<std::string> problems;  // "path: reason" for inputs that could not be read at all
  // Paths whose earlier, incomplete rows (a killed ingest, a cut file) were replaced by this run.
  std::vector<std::string> replaced;
  // Temporary databases of killed ingests into the same path, removed before this one began.
  std::vector<std::string> removed_leftovers;
  bool fresh = false;  // the database was new: built under a temporary name, then renamed
  uint64_t events = 0, errors = 0, bytes = 0;
  double seconds = 0;
  // CPU time (user + system) of the thread that ran the SQLite writer, index builds included:
  // the part of an ingest that no second core can take over.
  double writer_cpu_seconds = 0;
  double index_seconds = 0;  // wall time of the index builds after the load (part of `seconds`)
};

// Gives `db` the schema and the bulk-load pragmas (for databases nobody else sees: tests, memory).
// Throws SqliteError when it cannot.
void open_for_ingest(Connection& db);

// Ingests `inputs` (files, directories, "-" for stdin, .gz) into the database at `db_path`.
// Nothing already stored is put at risk, whenever the process is killed:
// - a database that does not exist yet is written under a temporary name beside it and renamed
//   into place when complete (a killed run leaves no database; its temporary file is removed by
//   the next ingest into the same path);
// - an existing database is appended to through a write-ahead log, committing as it goes: a kill
//   keeps every earlier file intact and the file being written marked incomplete
//   (files.completed = 0).
// A file stored incomplete under the same path is replaced (its rows deleted in one transaction,
// then it is ingested again); a completed file with the same content adds nothing.
// Throws IngestCancelled when options.cancelled says so, SqliteError on database failures; input
// problems are data (in the result and in ingest_errors), never exceptions.
IngestResult ingest(const std::string& db_path, const std::vector<std::string>& inputs,
                    const IngestOptions& options = {});

}  // namespace tlscope::model
