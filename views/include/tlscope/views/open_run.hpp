// Opening a run: what the viewer, the report and every reading command do before they read. The
// user names logs (files, rank directories, .gz), one tlscope database or one rage bundle; this
// finds the database to read. A database is read as it is; logs go through the model's input
// cache (one database per set of input paths, ingested and analysed once, rebuilt when their
// sizes or mtimes change), so `tlscope summary LOGS` and the viewer ingest the same logs once
// between them; a rage bundle's database is extracted into that cache folder under a name keyed
// by the bundle's identity. The front ends (exporters/, gui/, cli/) open runs only through here
// and run_opener.hpp, so none of them needs the model's headers (the build checks gui/ and
// exporters/).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

enum class InputKind { kDatabase, kBundle, kLogs };

struct OpenPlan {
  bool ok = false;
  std::string error;  // names the input at fault when !ok
  InputKind kind = InputKind::kLogs;
  std::vector<std::string> inputs;  // absolute paths
  std::string db_path;              // the database to read
  // db_path is there to read as it is (a database, a bundle extracted before): no background
  // work. Logs are never ready here: the resolver decides whether the cached copy is current.
  bool ready = false;
  std::string title;  // what a window title and a recent list show
};

bool is_bundle_name(const std::string& path);  // .tar.gz or .tgz
// True when `path` is a regular file starting with SQLite's header.
bool is_database_file(const std::string& path);

// Classifies `inputs` and names the database (logs: the input cache's file for them).
OpenPlan plan_open(const std::vector<std::string>& inputs);

// $XDG_CONFIG_HOME/tlscope, else ~/.config/tlscope, as a private folder of this user's
// (model::user_folder: a relative variable counts as unset); "" when no home is known.
std::string user_config_dir();

// The input cache's folder ($XDG_CACHE_HOME/tlscope, else ~/.cache/tlscope) when it is, or can
// be made, this user's private folder (model::ensure_private_folder); "" when it is refused or
// no home is known.
std::string private_cache_dir();

// Extracts the database of a rage bundle (its tlscope.db entry: the first .db in the archive)
// to `db_path`, never to a name taken from the archive: written into a private temporary beside
// it (model::AtomicFile) and renamed into place, unless `cancelled` says so by then. The error
// names the bundle (or says it was cancelled).
Result<bool> extract_bundle_database(const std::string& bundle, const std::string& db_path,
                                     const std::function<bool()>& cancelled = {});

// What an open in progress has done so far.
struct OpenProgress {
  double fraction = 0;  // 0..1 of the input bytes written; 1 once done
  std::string stage;    // "ingesting", "analysing", "extracting the bundle's database"
  uint64_t bytes_done = 0, bytes_total = 0;
  uint64_t files_done = 0, files_total = 0;
  uint64_t events = 0, errors = 0;  // stored so far
};

struct OpenLogsOptions {
  // --db: the database to reuse or build for logs (empty: the cache). An existing file there is
  // only rebuilt when an open built it; any other database is refused, never overwritten.
  std::string db_path;
  unsigned jobs = 1;
  std::function<void(const OpenProgress&)> progress;  // called from the ingest's writer
  // Checked between ingest batches and during the analysis: a cancelled open leaves no database
  // behind (and an existing cached one as it was).
  std::function<bool()> cancelled;
};

struct OpenedRun {
  std::string path;                // the database to read
  bool given = false;              // the input was a database, read as is
  bool ingested = false;           // built (ingested and analysed) by this open
  bool cancelled = false;          // stopped by OpenLogsOptions::cancelled (the error says so)
  std::vector<std::string> files;  // the log files behind it (empty when given)
  // When ingested: what the ingest stored and how long it took.
  size_t ingested_files = 0;
  uint64_t events = 0, errors = 0;
  double seconds = 0;
};

// Opens `inputs` (logs or one database) on this thread: nothing is written when an input is
// missing or unreadable; the error names it. `files` is filled even when the open fails.
Result<OpenedRun> open_logs(const std::vector<std::string>& inputs,
                            const OpenLogsOptions& options = {});

// The analysis tables the screens read: made now, through a connection of its own, when `db`
// (the database at `db_path`) was ingested without them. The value says whether it ran; `db` has
// no transaction open, so its next statement sees the new tables.
Result<bool> ensure_run_analysis(const Database& db, const std::string& db_path);

}  // namespace tlscope::views
