// Classifying what to open, naming its database, and opening logs through the model's input
// cache and analysis (open_run.hpp).
#include "tlscope/views/open_run.hpp"

#include <algorithm>
#include <filesystem>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/input_cache.hpp"
#include "tlscope/model/safe_output.hpp"

namespace tlscope::views {
namespace fs = std::filesystem;
namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string user_config_dir() { return model::user_folder("config"); }

std::string private_cache_dir() {
  const std::string cache = model::input_cache_dir();
  return !cache.empty() && model::ensure_private_folder(cache).empty() ? cache : std::string();
}

bool is_bundle_name(const std::string& path) {
  return ends_with(path, ".tar.gz") || ends_with(path, ".tgz");
}

bool is_database_file(const std::string& path) {
  return model::is_database_file(path);
}

OpenPlan plan_open(const std::vector<std::string>& inputs) {
  OpenPlan plan;
  if (inputs.empty()) {
    plan.error = "nothing to open";
    return plan;
  }
  size_t databases = 0, bundles = 0;
  for (const auto& input : inputs) {
    std::error_code ec;
    fs::path abs = fs::absolute(input, ec);
    if (ec || !fs::exists(abs, ec)) {
      plan.error = input + ": no such file or directory";
      return plan;
    }
    if (!fs::is_directory(abs, ec) && !fs::is_regular_file(abs, ec)) {
      plan.error = input + ": not a regular file or a directory";
      return plan;
    }
    plan.inputs.push_back(abs.lexically_normal().string());
    if (model::is_database_file(abs.string())) {
      ++databases;
    } else if (is_bundle_name(abs.string())) {
      ++bundles;
    }
  }
  if ((databases || bundles) && inputs.size() > 1) {
    plan.error = "open one database or one rage bundle at a time, or only logs (got " +
                 std::to_string(inputs.size()) + " paths)";
    return plan;
  }
  plan.title = inputs.size() == 1
                   ? plan.inputs[0]
                   : plan.inputs[0] + " and " + std::to_string(inputs.size() - 1) + " more";
  if (databases) {
    plan.kind = InputKind::kDatabase;
    plan.db_path = plan.inputs[0];
    plan.ready = true;
    plan.ok = true;
    return plan;
  }
  plan.kind = bundles ? InputKind::kBundle : InputKind::kLogs;
  // The identity the CLI's resolver uses: what it refuses (an unreadable file in a rank
  // directory) is refused here, before any window or thread starts.
  model::InputIdentity identity = model::identify_inputs(plan.inputs);
  if (!identity.problems.empty()) {
    plan.error = identity.problems.front();
    return plan;
  }
  // The viewer keeps what it opens in the input cache: it must be this user's private folder.
  const std::string cache = model::input_cache_dir();
  if (std::string why = cache.empty() ? std::string("no cache folder: HOME and XDG_CACHE_HOME "
                                                    "are unset")
                                      : model::ensure_private_folder(cache);
      !why.empty()) {
    plan.error = why;
    return plan;
  }
  if (bundles) {
    // Keyed by content (path, size, mtime): a changed bundle is extracted afresh.
    plan.db_path = cache + "/bundle-" + identity.content_key + ".db";
    std::error_code ec;
    plan.ready = fs::is_regular_file(plan.db_path, ec);
  } else {
    plan.db_path = model::cached_database_path(identity);
  }
  plan.ok = true;
  return plan;
}

Result<OpenedRun> open_logs(const std::vector<std::string>& inputs,
                            const OpenLogsOptions& options) {
  model::ResolveOptions resolve;
  resolve.db_path = options.db_path;
  resolve.jobs = options.jobs;
  if (options.progress) {
    resolve.progress = [&options](const model::IngestProgress& p) {
      OpenProgress shown;
      shown.stage = p.files_total && p.files_done == p.files_total ? "analysing" : "ingesting";
      shown.bytes_done = p.bytes_done;
      shown.bytes_total = p.bytes_total;
      shown.fraction = p.bytes_total ? std::min(1.0, static_cast<double>(p.bytes_done) /
                                                         static_cast<double>(p.bytes_total))
                                     : 0.0;
      shown.files_done = p.files_done;
      shown.files_total = p.files_total;
      shown.events = p.events;
      shown.errors = p.errors;
      options.progress(shown);
    };
  }
  resolve.cancelled = options.cancelled;
  model::ResolvedDatabase r = model::resolve_input_database(inputs, resolve);
  Result<OpenedRun> out;
  OpenedRun& run = out.value;
  run.path = r.path;
  run.given = r.given;
  run.ingested = r.ingested;
  run.cancelled = r.cancelled;
  run.files = std::move(r.files);
  if (r.ingested) {
    run.ingested_files = r.ingest.files.size();
    run.events = r.ingest.events;
    run.errors = r.ingest.errors;
    run.seconds = r.ingest.seconds;
  }
  if (!r.ok) out.fail(r.error.empty() ? "cannot open the inputs" : r.error);
  return out;
}

Result<bool> ensure_run_analysis(const Database& db, const std::string& db_path) {
  Result<bool> out;
  if (model::analysis::has_analysis_tables(db.handle())) return out;
  model::analysis::EnsuredAnalysis analysis = model::analysis::ensure_analysis(db_path);
  if (!analysis.ok) out.fail(analysis.error);
  out.value = analysis.ran;
  return out;
}

}  // namespace tlscope::views
