// Resolving logs or a database into the database to read, with the per-user ingest cache.
//
// The cache file is named after the inputs' paths only, so one set of inputs has one file that
// is rebuilt in place when the logs change (no pile of stale copies); whether it is current is
// the content key stored in its `meta` table. A database is built under `<target>.building-<pid>`
// and renamed into place only once ingested and analysed: readers never see a half-built one,
// and two commands building the same inputs at once each publish a complete database.
#include "tlscope/model/input_cache.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>

#include "interrupt_on_cancel.hpp"
#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/safe_output.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/parser/md5.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::model {
namespace {

// The parse and store batches are freed once the load is done, and the connection's page cache
// once it closes, but glibc keeps the pages of the threads' arenas: handing them back before the
// analysis and again before the caller's report keeps one command's peak RSS at the largest of
// the three steps', not their sum (152.8 MiB on the 1 GB log before).
// Not under AddressSanitizer: its allocator replaces glibc's, whose arenas malloc_trim would walk
// uninitialised from a thread (a SEGV when compare ingests its two runs at once).
void release_freed_heap() {
#if defined(__GLIBC__) && !defined(TLSCOPE_SANITIZED)
  malloc_trim(0);
#endif
}

namespace fs = std::filesystem;

constexpr const char* kIdentityKey = "input_identity";
constexpr int kCacheDays = 30;

// The kernel's view of a path (symlinks, then `..`): a lexical normalisation would take
// `LINK/../x.log` to the wrong file.
std::string absolute_path(const std::string& path) {
  return resolved_path(path);
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += separator;
    out += parts[i];
  }
  return out;
}

// What the database at `path` says it was built from: nullopt when it was not built by a
// resolve (no identity row) or is unfinished (a file whose ingest did not complete).
struct StoredIdentity {
  bool readable = false;
  std::optional<std::string> content_key;
};

StoredIdentity read_identity(const std::string& path) {
  StoredIdentity stored;
  try {
    Connection db(path, OpenMode::kReadOnly);
    stored.readable = true;
    if (db.scalar_int("SELECT count(*) FROM sqlite_master WHERE name = 'meta'").value_or(0) == 0)
      return stored;
    Statement s = db.prepare("SELECT value FROM meta WHERE key = ?");
    s.bind_static(1, kIdentityKey);
    if (!s.step() || s.is_null(0)) return stored;
    std::string key = s.text(0);
    if (db.scalar_int("SELECT count(*) FROM files WHERE completed = 0").value_or(1) != 0)
      key.clear();  // never matches: rebuilt
    stored.content_key = key;
  } catch (const std::exception&) {
    // Unreadable (damaged, locked away): the caller decides whether it may be rebuilt.
  }
  return stored;
}

// Ingests and analyses `files` into `target` through a private building file.
bool build_database(const std::string& target, const InputIdentity& identity,
                    const ResolveOptions& options, ResolvedDatabase& r) {
  // Builds left by killed commands are the temporaries beside `target` whose lock nobody holds
  // (a live build in another pid namespace holds its lock: a pid would say nothing there).
  remove_stale_temporaries(target);
  // A private name beside the target; the ingest makes its own locked temporary for it, named
  // with it as prefix, and publishes it here only once complete.
  char random[16];
  std::snprintf(random, sizeof random, "%08x", static_cast<unsigned>(std::random_device{}()));
  std::string building = temporary_prefix(target) + random;
  std::error_code ec;
  auto fail = [&](const std::string& error) {
    std::error_code ignored;
    fs::remove(building, ignored);
    r.error = error;
    return false;
  };
  IngestOptions ingest_options;
  ingest_options.jobs = options.jobs;
  ingest_options.page_cache_kib = options.page_cache_kib;
  ingest_options.queue_depth = options.queue_depth;
  ingest_options.progress = options.progress;
  ingest_options.cancelled = options.cancelled;
  auto cancelled = [&] {
    r.cancelled = true;
    return fail(target + ": cancelled; nothing was kept");
  };
  // The analysis runs on the ingest's connection, before its file is renamed into place: nobody
  // sees it yet, and reopening it would read its schema and pages a second time.
  struct AnalysisFailed {
    std::string why;
  };
  bool analysing = false;
  ingest_options.before_publish = [&](Connection& db, const IngestResult& ingested) {
    if (!ingested.problems.empty()) return;  // the build fails below: nothing to analyse
    analysing = true;
    // The settings the analysis had on a connection of its own: the index builds' sort threads
    // off again (rows that tie in an ORDER BY keep the order they always had) and the bulk-load
    // page cache back.
    db.exec("PRAGMA threads=0; PRAGMA cache_size=-" +
            std::to_string(options.page_cache_kib > 0 ? options.page_cache_kib : 65536));
    release_freed_heap();
    analysis::AnalysisReport report;
    {
      InterruptOnCancel interrupt(db.handle(), options.cancelled);
      report = analysis::analyze(db.handle());
    }
    if (options.cancelled && options.cancelled()) throw IngestCancelled(target);
    if (!report.ok) throw AnalysisFailed{report.error};
    Statement s = db.prepare("INSERT OR REPLACE INTO meta VALUES(?, ?)");
    s.bind_static(1, kIdentityKey);
    s.bind_static(2, identity.content_key);
    s.run();
  };
  try {
    r.ingest = ingest(building, identity.files, ingest_options);
    release_freed_heap();  // the load's connection and the analysis are done: the report follows
  } catch (const IngestCancelled&) {
    return cancelled();
  } catch (const AnalysisFailed& e) {
    return fail(target + ": analysis failed: " + e.why);
  } catch (const std::exception& e) {
    if (analysing && options.cancelled && options.cancelled()) return cancelled();
    return fail(target + ": " + e.what());
  }
  if (!r.ingest.problems.empty()) return fail(join(r.ingest.problems, "; "));
  // The cache holds whatever the logs hold: this user's only.
  if (options.db_path.empty()) ::chmod(building.c_str(), 0600);
  fs::rename(building, target, ec);
  if (ec) return fail(target + ": cannot put the database in place: " + ec.message());
  r.ingested = true;
  return true;
}

// A folder of this process's own (mkdtemp, 0700, in $TMPDIR or /tmp), removed at exit: where
// logs are read when the cache cannot be used. "" when none can be made.
std::string process_scratch_folder() {
  static std::string folder = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp && tmp[0] == '/' ? tmp : "/tmp") + "/tlscope-nocache-XXXXXX";
    if (!::mkdtemp(pattern.data())) return std::string();
    static std::string removed_at_exit;
    removed_at_exit = pattern;
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(removed_at_exit, ec);
    });
    return pattern;
  }();
  return folder;
}

// Cached databases unused for kCacheDays are removed when a new one is built: the cache only
// holds what can be rebuilt from the logs, and logs read once should not fill the disk for ever.
void forget_unused_databases() {
  std::error_code ec;
  auto cutoff = fs::file_time_type::clock::now() - std::chrono::hours(24 * kCacheDays);
  for (fs::directory_iterator it(input_cache_dir(), ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".db") continue;
    std::error_code stat_error;
    auto used = fs::last_write_time(it->path(), stat_error);
    if (!stat_error && used < cutoff) fs::remove(it->path(), stat_error);
  }
}

}  // namespace

std::string input_cache_dir() {
  return user_folder("cache");
}

bool is_database_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[16] = {};
  in.read(magic, sizeof magic);
  return in && std::string_view(magic, 15) == "SQLite format 3";
}

InputIdentity identify_inputs(const std::vector<std::string>& inputs) {
  InputIdentity id;
  std::vector<std::string> absolute;
  for (const std::string& in : inputs) {
    if (in == "-") {
      id.problems.push_back(
          "-: standard input cannot be cached; ingest it with `tlscope ingest - --db FILE` and "
          "read that database");
      continue;
    }
    absolute.push_back(absolute_path(in));
  }
  if (!id.problems.empty()) return id;
  // Problems name the inputs as the user typed them; the sources are resolved paths already
  // (plan_inputs), so one plan serves both: a second one over the absolute paths listed and
  // typed every file of a rank folder again (issue 27: a third of summary's time at 100,000).
  parser::InputPlan plan = parser::plan_inputs(inputs);
  id.problems = plan.problems;
  if (!id.problems.empty()) return id;
  id.problems.insert(id.problems.end(), plan.unreadable.begin(), plan.unreadable.end());
  parser::Md5 content;
  content.update("schema ");
  content.update(kSchemaVersion);
  content.update("\n");
  for (const parser::SourceInfo& source : plan.sources) {
    struct stat st {};
    if (stat(source.path.c_str(), &st) != 0) {
      id.problems.push_back(source.path + ": " + std::strerror(errno));
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      id.problems.push_back(source.path + ": not a regular file");
      continue;
    }
    id.files.push_back(source.path);
    content.update(source.path);
    char stamp[80];
    std::snprintf(stamp, sizeof stamp, " %lld %lld.%09ld\n", static_cast<long long>(st.st_size),
                  static_cast<long long>(st.st_mtim.tv_sec), static_cast<long>(st.st_mtim.tv_nsec));
    content.update(stamp);
  }
  id.name_key = parser::Md5::hex_of(join(absolute, std::string_view("\0", 1)));
  id.content_key = parser::Md5::hex(content.finish());
  return id;
}

std::string cached_database_path(const InputIdentity& identity) {
  std::string dir = input_cache_dir();
  if (dir.empty()) return {};  // no cache folder: never a path under /
  return dir + "/" + identity.name_key + ".db";
}

ResolvedDatabase resolve_input_database(const std::vector<std::string>& inputs,
                                        const ResolveOptions& options) {
  ResolvedDatabase r;
  if (inputs.empty()) {
    r.error = "no input given: name log files, rank directories or a tlscope database";
    return r;
  }
  for (const std::string& in : inputs) {
    // A file named like a database is read as one, so a damaged or foreign x.db is refused as
    // "not a tlscope database" instead of being ingested as a log of bad lines.
    const std::string ext = fs::path(in).extension().string();
    const bool named_as_database = ext == ".db" || ext == ".sqlite" || ext == ".sqlite3";
    if (!is_database_file(in) && !(named_as_database && fs::is_regular_file(in))) continue;
    if (inputs.size() > 1) {
      r.error = in + ": is a tlscope database; give it alone, not with other inputs";
      return r;
    }
    if (!options.db_path.empty() && absolute_path(options.db_path) != absolute_path(in)) {
      r.error = in + ": is a tlscope database already; --db names where logs are ingested";
      return r;
    }
    r.ok = r.given = true;
    r.path = in;
    return r;
  }
  InputIdentity identity = identify_inputs(inputs);
  if (!identity.problems.empty()) {
    r.error = join(identity.problems, "; ");
    return r;
  }
  r.files = identity.files;
  std::string target = options.db_path;
  bool cached = target.empty();
  if (cached) {
    // The cache must be this user's own folder (not a link, not another user's, not writable by
    // others). When it is not, the command still runs: the logs are ingested into a private
    // temporary folder removed at exit, and the note says why the cache was not used.
    std::string dir = input_cache_dir();
    std::string why = dir.empty() ? "no home folder is known (HOME unset) and XDG_CACHE_HOME is "
                                    "not set"
                                  : ensure_private_folder(dir);
    if (why.empty()) {
      target = cached_database_path(identity);
    } else {
      std::string scratch = process_scratch_folder();
      if (scratch.empty()) {
        r.error = why + "; name a database with --db";
        return r;
      }
      r.note = why + "; the cache is not used (the logs are read into a temporary database)";
      target = scratch + "/" + identity.name_key + ".db";
      cached = false;
    }
  }
  std::error_code ec;
  if (fs::exists(fs::symlink_status(target, ec))) {
    if (!is_database_file(target)) {
      r.error = target + ": exists and is not a tlscope database; not overwritten";
      return r;
    }
    StoredIdentity stored = read_identity(target);
    if (stored.content_key == identity.content_key) {
      // A use counts as fresh for the cache's clean-up (forget_unused_databases).
      if (cached) utimensat(AT_FDCWD, target.c_str(), nullptr, 0);
      r.ok = true;
      r.path = target;
      return r;
    }
    if (!stored.content_key && !options.db_path.empty()) {
      r.error = target +
                ": exists and was not built from logs by a reading command (tlscope ingest "
                "writes such databases); read it alone, or give another --db";
      return r;
    }
  }
  if (!build_database(target, identity, options, r)) return r;
  if (cached) forget_unused_databases();
  r.ok = true;
  r.path = target;
  return r;
}

}  // namespace tlscope::model
