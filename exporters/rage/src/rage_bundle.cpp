// Assembling the rage bundle: stage redacted logs, the database and the report in a scratch folder
// beside the output, then stream everything into the .tar.gz and rename it into place.
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <set>

#include "rage_database.hpp"
#include "rage_summary.hpp"
#include "scratch_dir.hpp"
#include "tlscope/exporters/rage/regular_file.hpp"
#include "tlscope/exporters/report.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::exporters::rage {
namespace {

namespace fs = std::filesystem;

std::string utc_now() {
  return format_utc(static_cast<double>(std::time(nullptr)), "%Y-%m-%dT%H:%M:%SZ");
}

// "bug.tar.gz" -> "bug": the folder the archive unpacks into.
std::string top_folder(const std::string& out_path) {
  std::string name = fs::path(out_path).filename().string();
  for (std::string_view ext : {".tar.gz", ".tgz", ".gz", ".tar"}) {
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
      name.resize(name.size() - ext.size());
      break;
    }
  }
  return name.empty() ? "tlscope-rage" : name;
}

// The log's name inside the bundle: its file name without .gz, redacted (a token in a file name
// would otherwise reach the tar member name, manifest.json, files.path and the report).
std::string bundle_log_name(const std::string& path, std::set<std::string>& taken,
                            Redactor& redactor, RedactionCounts& counts) {
  std::string name = fs::path(path).filename().string();
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) name.resize(name.size() - 3);
  if (name.empty() || name == "-") name = "stdin.log";
  redactor.redact_file_name(name, counts);
  std::string unique = name;
  for (int i = 2; !taken.insert(unique).second; ++i) unique = std::to_string(i) + "_" + name;
  return unique;
}

}  // namespace

RunListing list_runs(const std::string& dir, const RunGrouping& grouping, bool scan,
                     const std::function<void(uint64_t, uint64_t)>& progress) {
  RunListing listing;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    listing.problems.push_back(dir +
                               (fs::exists(dir, ec) ? ": not a directory" : ": no such directory"));
    return listing;
  }
  parser::InputPlan plan = parser::plan_inputs({dir});
  listing.problems = plan.problems;
  std::vector<TraceFile> files;
  uint64_t total = 0, done = 0;
  for (const parser::SourceInfo& source : plan.sources) {
    if (auto kind = special_file_kind(source.path)) {
      listing.problems.push_back(source.path + ": skipped: " + *kind + ", not a regular file");
      continue;
    }
    files.push_back(probe_trace_file(source.path));
    total += files.back().bytes;
  }
  if (scan) {
    for (TraceFile& f : files) {
      std::string error;
      if (!scan_trace_file(f, error)) listing.problems.push_back(error);
      done += f.bytes;
      if (progress) progress(done, total);
    }
  }
  listing.runs = group_runs(std::move(files), grouping);
  if (scan)
    for (TraceRun& run : listing.runs) total_scans(run);
  return listing;
}

RageResult write_rage_bundle(const RageOptions& options) {
  auto started = std::chrono::steady_clock::now();
  RageResult result;
  auto fail = [&](const std::string& error) {
    result.error = error;
    return result;
  };
  if (options.out_path.empty()) return fail("no output file given (-o bundle.tar.gz)");
  if (options.run.files.empty() && options.db_path.empty()) return fail("nothing to bundle");
  fs::path out = fs::absolute(options.out_path);
  std::error_code ec;
  if (fs::is_directory(out, ec)) return fail(options.out_path + ": is a directory");
  fs::path parent = out.parent_path();
  if (!fs::is_directory(parent, ec)) return fail(parent.string() + ": no such directory");

  // Everything, the archive included, is written in a fresh private folder beside the output
  // and only the finished archive is renamed into place: nothing is written through a name
  // someone else could have planted (a `bug.tar.gz.part` symlink, say).
  ScratchDir staging;
  std::string error;
  if (!staging.create(out.string() + ".staging-", error)) return fail(error);
  fs::create_directories(staging.path() / "logs", ec);
  if (ec) return fail((staging.path() / "logs").string() + ": " + ec.message());

  Redactor redactor(options.redaction);
  BundleSummary summary;
  summary.tlscope_version = options.environment.tlscope_version;
  summary.created_utc = utc_now();
  summary.top = top_folder(options.out_path);
  summary.paths_redacted = options.redaction.redact_paths;
  summary.from_database = !options.db_path.empty();
  summary.run = &options.run;
  {
    std::string source = options.source_description;
    RedactionCounts ignored;  // a path in the description is not a secret found in the data
    redactor.redact_line(source, ignored);
    redactor.end_block();
    summary.source = source;
  }
  auto progress = [&](std::string_view stage, uint64_t done, uint64_t total) {
    if (options.progress) options.progress(stage, done, total);
  };
  auto cpu_now = [] {
    struct rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  };
  auto stage_start = std::chrono::steady_clock::now();
  double cpu_start = cpu_now();
  auto stage_done = [&](const char* stage) {
    auto now = std::chrono::steady_clock::now();
    double cpu = cpu_now();
    result.stages.push_back(
        {stage, std::chrono::duration<double>(now - stage_start).count(), cpu - cpu_start});
    stage_start = now;
    cpu_start = cpu;
  };

  // 1. The database first in database mode: its files table names the logs to bundle.
  std::string db = (staging.path() / "tlscope.db").string();
  std::vector<std::string> log_sources;
  for (const TraceFile& f : options.run.files) log_sources.push_back(f.path);
  if (summary.from_database) {
    std::vector<std::string> named;
    progress("redacting database", 0, 1);
    std::string error;
    if (!redact_database_copy(options.db_path, db, redactor, summary, named, error))
      return fail(error);
    progress("redacting database", 1, 1);
    if (log_sources.empty()) {
      for (const std::string& p : named) {
        if (p != "-" && fs::is_regular_file(p, ec)) {
          log_sources.push_back(p);
        } else {
          std::string shown = p;
          RedactionCounts ignored;
          redactor.redact_line(shown, ignored);
          std::optional<std::string> kind = p == "-" ? std::nullopt : special_file_kind(p);
          summary.missing_logs.push_back(shown + ": " +
                                         (kind ? *kind + ", not read" : std::string("not found")));
        }
      }
    }
  }

  // 2. Redacted copies of the logs.
  std::set<std::string> taken;
  std::vector<std::string> staged, bundle_names;
  uint64_t total_bytes = 0, done_bytes = 0;
  for (const std::string& p : log_sources) total_bytes += fs::file_size(p, ec);
  for (const std::string& path : log_sources) {
    BundledLog log;
    log.name = bundle_log_name(path, taken, redactor, summary.name_counts);
    log.rank = parser::rank_from_filename(path);
    log.original_bytes = fs::file_size(path, ec);
    std::string dest = (staging.path() / "logs" / log.name).string();
    uint64_t base = done_bytes;
    log.redaction = redact_log(path, dest, redactor, 50, [&](uint64_t read) {
      progress("redacting logs", base + std::min(read, log.original_bytes), total_bytes);
    });
    if (!log.redaction.ok) return fail(log.redaction.error);
    done_bytes += log.original_bytes;
    progress("redacting logs", done_bytes, total_bytes);
    summary.counts.merge(log.redaction.counts);
    staged.push_back(dest);
    bundle_names.push_back("logs/" + log.name);
    summary.logs.push_back(std::move(log));
  }

  summary.counts.merge(summary.name_counts);
  stage_done("redact");

  // 3. The database from the redacted logs (so it cannot hold what the logs no longer do).
  if (!summary.from_database) {
    std::string error;
    if (!build_database(
            db, staged, bundle_names, options.jobs,
            [&](uint64_t done, uint64_t total) { progress("ingesting", done, total); }, error))
      return fail(error);
  }
  summary.counts.merge(summary.db_counts);
  count_database(db, summary);

  stage_done("database");

  // 4. The report.
  fs::path report_dir = staging.path() / "report";
  if (options.with_report) {
    progress("writing report", 0, 1);
    ReportOptions report;
    report.db_path = db;
    report.out_dir = report_dir.string();
    ReportResult written = write_report(report);
    if (written.ok) {
      summary.has_report = true;
    } else {
      summary.report_note = "the report could not be written: " + written.error;
      result.notes.push_back(summary.report_note);
      fs::remove_all(report_dir, ec);
    }
    progress("writing report", 1, 1);
  } else {
    summary.report_note = "left out with --no-report";
  }

  stage_done("report");

  // 5. env.txt.
  std::string env = describe_environment(options.environment, redactor, summary.env_counts);
  summary.counts.merge(summary.env_counts);
  stage_done("environment");

  // 6. The archive: README first so it is what a reader meets, manifest last (it lists the rest).
  std::vector<std::pair<std::string, fs::path>> files;  // archive name -> staged file
  for (size_t i = 0; i < staged.size(); ++i)
    files.emplace_back(summary.top + "/" + bundle_names[i], staged[i]);
  files.emplace_back(summary.top + "/tlscope.db", db);
  if (summary.has_report) {
    std::vector<std::pair<std::string, fs::path>> pages;
    for (auto it = fs::recursive_directory_iterator(report_dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec))
        pages.emplace_back(
            summary.top + "/report/" + fs::relative(it->path(), report_dir).generic_string(),
            it->path());
    }
    if (ec) return fail(report_dir.string() + ": " + ec.message());
    std::sort(pages.begin(), pages.end());
    files.insert(files.end(), pages.begin(), pages.end());
  }
  std::string part = (staging.path() / "bundle.tar.gz.part").string();
  TarGzWriter tar;
  std::vector<TarEntry> entries;
  auto add_bytes = [&](const std::string& name, const std::string& text) {
    entries.emplace_back();
    return tar.add_bytes(summary.top + "/" + name, text, &entries.back());
  };
  bool ok = tar.open(part, options.compression_level) &&
            add_bytes("README.txt", readme_text(summary)) && add_bytes("env.txt", env);
  uint64_t archive_total = 0, archive_done = 0;
  for (const auto& f : files) archive_total += fs::file_size(f.second, ec);
  for (size_t i = 0; ok && i < files.size(); ++i) {
    entries.emplace_back();
    ok = tar.add_file(files[i].first, files[i].second.string(), &entries.back());
    archive_done += entries.back().size;
    if (i % 64 == 0 || i + 1 == files.size()) progress("archiving", archive_done, archive_total);
  }
  if (ok) {
    TarEntry manifest;
    ok = tar.add_bytes(summary.top + "/manifest.json", manifest_json(summary, entries), &manifest);
    entries.push_back(manifest);
  }
  ok = tar.close() && ok;
  stage_done("archive");
  if (!ok) {
    fs::remove(part, ec);
    return fail(tar.error());
  }
  fs::rename(part, out, ec);
  if (ec) {
    fs::remove(part, ec);
    return fail(out.string() + ": " + ec.message());
  }
  result.ok = true;
  result.bundle_bytes = fs::file_size(out, ec);
  result.entries = entries.size();
  for (const TarEntry& e : entries) result.archived_bytes += e.size;
  result.events = static_cast<uint64_t>(summary.events);
  result.ingest_errors = static_cast<uint64_t>(summary.ingest_errors);
  result.counts = summary.counts;
  for (const std::string& m : summary.missing_logs)
    result.notes.push_back(m + " (named in the database; not bundled)");
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace tlscope::exporters::rage
