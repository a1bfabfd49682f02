// What the rage bundle holds, gathered while it is built, for README.txt and manifest.json.
#pragma once

#include <string>
#include <vector>

#include "tlscope/exporters/rage/log_redaction.hpp"
#include "tlscope/exporters/rage/rage.hpp"
#include "tlscope/exporters/rage/tar_gz.hpp"

namespace tlscope::exporters::rage {

struct BundledLog {
  std::string name;  // under logs/
  std::optional<int64_t> rank;
  uint64_t original_bytes = 0;  // on disk, before redaction (compressed for .gz)
  LogRedaction redaction;
};

struct BundleSummary {
  std::string tlscope_version;
  std::string created_utc;  // ISO 8601
  std::string top;          // top-level folder inside the archive
  std::string source;       // redacted description of what was bundled
  bool from_database = false;
  const TraceRun* run = nullptr;
  std::vector<BundledLog> logs;
  std::vector<std::string> missing_logs;  // database mode: "path: why not read" per absent log
  int64_t events = 0, ingest_errors = 0, compiles = -1, findings = -1;
  bool has_report = false;
  std::string report_note;  // why there is no report, when there is none
  bool paths_redacted = false;
  RedactionCounts counts;  // every redaction in the bundle
  RedactionCounts env_counts, db_counts;
  RedactionCounts name_counts;    // in the logs' file names
  uint64_t db_cells_changed = 0;  // database mode
};

std::string readme_text(const BundleSummary& s);
std::string manifest_json(const BundleSummary& s, const std::vector<TarEntry>& entries);

}  // namespace tlscope::exporters::rage
