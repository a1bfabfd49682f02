// Database side of the rage bundle: ingesting the redacted logs, or redacting a copy of a database
// the user already has, and reading the counts the README and manifest report.
#pragma once

#include <string>
#include <vector>

#include "rage_summary.hpp"

namespace tlscope::exporters::rage {

// Ingests `logs` (staged, redacted) into `db_path`, names the files by their place in the bundle
// ("logs/<name>") and runs the analyses. False with `error` on failure.
bool build_database(const std::string& db_path, const std::vector<std::string>& logs,
                    const std::vector<std::string>& bundle_names, unsigned jobs,
                    const std::function<void(uint64_t, uint64_t)>& progress, std::string& error);

// Copies the database at `source` to `dest` with every text cell of every table redacted, then
// rebuilds the file (VACUUM) so no freed page still holds the old text. `log_paths` gets the
// files table's paths as they were (to find the logs on disk).
bool redact_database_copy(const std::string& source, const std::string& dest, Redactor& redactor,
                          BundleSummary& summary, std::vector<std::string>& log_paths,
                          std::string& error);

// Fills events, ingest_errors, compiles and findings of `summary` from the database.
void count_database(const std::string& db_path, BundleSummary& summary);

}  // namespace tlscope::exporters::rage
