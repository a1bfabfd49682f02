// Write-side operations a bug bundle needs on a store: a copy of a database with every text cell
// passed through the caller's redactor, the bundle's names for the ingested files, and the counts
// the bundle reports. The SQL lives here so the rage bundle (exporters/rage) holds none.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tlscope::model {

// Rewrites `text` in place; returns true when it changed anything. Called once per text cell.
using TextRedactor = std::function<bool(std::string& text)>;

struct StoreRedaction {
  bool ok = false;
  std::string error;                    // names the database at fault
  uint64_t cells_changed = 0;           // text cells the redactor changed
  std::vector<std::string> file_paths;  // the source's files.path in id order, as they were
};

// Copies the database at `source` (opened read-only, left as it is) to `dest` with VACUUM INTO,
// passes every text cell of every ordinary table through `redact`, then VACUUMs `dest` so no freed
// page still holds the old text. Refuses a database without an events table.
StoreRedaction redact_store_copy(const std::string& source, const std::string& dest,
                                 const TextRedactor& redact);

struct FileRename {
  std::string from, to;  // files.path as ingested -> as the reader will see it
};

// Renames files.path per `renames`, and removes `strip_prefix` (the folder the files were ingested
// from) wherever it occurs in ingest_errors.reason. False with `error` naming the database.
bool rename_store_files(const std::string& db_path, const std::vector<FileRename>& renames,
                        const std::string& strip_prefix, std::string& error);

struct StoreCounts {
  int64_t events = 0, ingest_errors = 0;
  int64_t compiles = -1, findings = -1;  // -1 when the analysis tables are absent
};

// Row counts of a store; false with `error` naming the database when it cannot be read.
bool count_store(const std::string& db_path, StoreCounts& counts, std::string& error);

}  // namespace tlscope::model
