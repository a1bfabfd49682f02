// Building or redacting the bundle's database (see rage_database.hpp). The SQL is the model's
// (tlscope/model/redact_store.hpp); this file decides what goes in.
#include "rage_database.hpp"

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/redact_store.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::exporters::rage {

bool build_database(const std::string& db_path, const std::vector<std::string>& logs,
                    const std::vector<std::string>& bundle_names, unsigned jobs,
                    const std::function<void(uint64_t, uint64_t)>& progress, std::string& error) {
  try {
    model::IngestOptions options;
    options.jobs = jobs;
    if (progress)
      options.progress = [&](const model::IngestProgress& p) {
        progress(p.bytes_done, p.bytes_total);
      };
    model::IngestResult ingested = model::ingest(db_path, logs, options);
    if (!ingested.problems.empty()) {
      error = ingested.problems.front();
      return false;
    }
    // The staging paths mean nothing to the reader of the bundle: name the files as they are in
    // it, and strip the staging folder from the error reasons (they start with the parsed path).
    std::vector<model::FileRename> renames;
    for (size_t i = 0; i < logs.size(); ++i) renames.push_back({logs[i], bundle_names[i]});
    std::string staging;
    if (!logs.empty() && logs[0].size() > bundle_names[0].size())
      staging = logs[0].substr(0, logs[0].size() - bundle_names[0].size());
    if (!model::rename_store_files(db_path, renames, staging, error)) return false;
    model::Connection db(db_path, model::OpenMode::kReadWrite);
    db.add_own_views();  // analyze() runs its SQL on the handle
    auto report = model::analysis::analyze(db.handle());
    if (!report.ok) {
      error = db_path + ": analysis failed: " + report.error;
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    error = db_path + ": " + e.what();
    return false;
  }
}

bool redact_database_copy(const std::string& source, const std::string& dest, Redactor& redactor,
                          BundleSummary& summary, std::vector<std::string>& log_paths,
                          std::string& error) {
  model::StoreRedaction copy = model::redact_store_copy(source, dest, [&](std::string& text) {
    return redactor.redact_text(text, summary.db_counts);
  });
  if (!copy.ok) {
    error = copy.error;
    return false;
  }
  log_paths = std::move(copy.file_paths);
  summary.db_cells_changed = copy.cells_changed;
  return true;
}

void count_database(const std::string& db_path, BundleSummary& summary) {
  model::StoreCounts counts;
  std::string error;
  // Counts are informative; the database itself was checked when it was built.
  if (!model::count_store(db_path, counts, error)) return;
  summary.events = counts.events;
  summary.ingest_errors = counts.ingest_errors;
  summary.compiles = counts.compiles;
  summary.findings = counts.findings;
}

}  // namespace tlscope::exporters::rage
