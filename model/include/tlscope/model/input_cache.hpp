// The database a reading command (summary, report, export, tensor, the viewer) reads when the user
// names logs or a database alike: a tlscope database is read as is; logs (files, rank directories,
// .gz) are ingested and analysed once into a database in the user's cache, named after the
// inputs' paths, and reused while their identity (paths, sizes, mtimes) is unchanged. Cached
// databases unused for 30 days are removed whenever a new one is built.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tlscope/model/ingest.hpp"

namespace tlscope::model {

// user_folder("cache") (safe_output.hpp): $XDG_CACHE_HOME/tlscope, or ~/.cache/tlscope when
// XDG_CACHE_HOME is unset or not absolute; "" when no home is known. Used only when it is this
// user's own private folder (ensure_private_folder).
std::string input_cache_dir();

// True when `path` is a regular file starting with SQLite's header.
bool is_database_file(const std::string& path);

// What a set of log inputs is, as the cache sees it.
struct InputIdentity {
  std::vector<std::string> problems;  // "path: reason" for inputs that cannot be read
  std::vector<std::string> files;     // absolute log files, directories expanded as ingest does
  std::string name_key;     // hex digest of the absolute input paths: names the cache file
  std::string content_key;  // hex digest of every file's path, size and mtime (and the schema)
};
InputIdentity identify_inputs(const std::vector<std::string>& inputs);

// input_cache_dir()/<name_key>.db: the one place the CLI and the viewer look for these inputs
// ("" when there is no cache folder).
std::string cached_database_path(const InputIdentity& identity);

struct ResolveOptions {
  // --db: the database to reuse or build for logs (empty: the cache). An existing file there is
  // only rebuilt when a resolve built it; any other database is refused, never overwritten.
  std::string db_path;
  unsigned jobs = 1;
  // The page cache of the ingest and its analysis, in KiB (IngestOptions::page_cache_kib), and
  // the parsed batches a file's queue holds; 0: their defaults (64 MiB each, 4 batches).
  int page_cache_kib = 0;
  size_t queue_depth = 0;  // IngestOptions::queue_depth
  std::function<void(const IngestProgress&)> progress;
  // Checked between ingest batches and during the analysis (IngestOptions::cancelled): a
  // cancelled resolve leaves no database behind (and an existing cached one as it was).
  std::function<bool()> cancelled;
};

struct ResolvedDatabase {
  bool ok = false;
  std::string error;               // names the input or database at fault
  std::string path;                // the database to read
  bool given = false;              // the input was a database, read as is
  bool ingested = false;           // built (ingested and analysed) by this call
  bool cancelled = false;          // stopped by ResolveOptions::cancelled (error says so)
  std::string note;                // why the cache was not used (then the database is temporary)
  std::vector<std::string> files;  // the log files behind it (empty when given)
  IngestResult ingest;             // when ingested
};

// Nothing is written when an input is missing or unreadable: the result names it instead.
ResolvedDatabase resolve_input_database(const std::vector<std::string>& inputs,
                                        const ResolveOptions& options = {});

}  // namespace tlscope::model
