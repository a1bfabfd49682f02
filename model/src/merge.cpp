// Merging tlscope databases (see merge.hpp): checks every shard, then copies them file by file
// with ShardMerger into an IngestTarget, as durable as an ingest.
#include "tlscope/model/merge.hpp"

#include <sys/stat.h>

#include <chrono>
#include <utility>

#include "ingest_target.hpp"
#include "shard_merger.hpp"
#include "tlscope/model/schema.hpp"

namespace tlscope::model {
namespace {

std::pair<dev_t, ino_t> identity(const std::string& path, bool& exists) {
  struct stat st;
  exists = ::stat(path.c_str(), &st) == 0;
  return exists ? std::pair{st.st_dev, st.st_ino} : std::pair<dev_t, ino_t>{};
}

// Everything that makes the merge impossible, found before the output is touched.
void check_inputs(const std::string& db_path, const std::vector<std::string>& shards) {
  if (shards.empty()) throw MergeRefused("no shard databases to merge");
  bool out_exists = false;
  auto out_id = identity(db_path, out_exists);
  std::vector<std::pair<std::pair<dev_t, ino_t>, std::string>> seen;
  for (const std::string& shard : shards) {
    bool exists = false;
    auto id = identity(shard, exists);
    if (!exists) throw MergeRefused(shard + ": no such file");
    if (out_exists && id == out_id) {
      throw MergeRefused(shard + ": is the output database itself; merge into a new --db file");
    }
    for (const auto& [other, name] : seen) {
      if (other == id) throw MergeRefused(shard + ": named twice (also as " + name + ")");
    }
    seen.emplace_back(id, shard);
    if (std::string why = shard_problem(shard); !why.empty()) {
      throw MergeRefused(shard + ": " + why);
    }
  }
  if (out_exists) {
    if (std::string why = shard_problem(db_path); !why.empty()) {
      throw MergeRefused(db_path + " (the output): " + why);
    }
  }
}

// Runs `step` on `shard`; a failure there (a table missing, a value refused) is refused naming
// the shard at fault, not the output database.
template <typename Step>
void naming_shard(const std::string& shard, Step&& step) {
  try {
    step();
  } catch (const MergeRefused&) {
    throw;
  } catch (const std::exception& e) {
    throw MergeRefused(shard + ": " + e.what());
  }
}

}  // namespace

MergeResult merge_databases(const std::string& db_path, const std::vector<std::string>& shards) {
  auto start = std::chrono::steady_clock::now();
  check_inputs(db_path, shards);
  MergeResult result;
  IngestTarget target(db_path);
  result.fresh = target.fresh();
  result.removed_leftovers = target.removed_leftovers();
  {
    Connection db(target.write_path());
    // Before the append's pragmas switch the file to WAL: a refused database is left as it was.
    if (!target.fresh()) refuse_other_schema_version(db);
    target.apply_pragmas(db);
    create_schema(db);
    ShardMerger merger(db);
    // One ingest writes the problems of missing inputs before any file: so does the merge.
    const char* kProblems = "SELECT count(*) FROM ingest_errors WHERE file_id IS NULL";
    int64_t problems_before = db.scalar_int(kProblems).value_or(0);
    for (size_t i = 0; i < shards.size(); ++i) {
      naming_shard(shards[i], [&] {
        merger.attach(static_cast<int64_t>(i), shards[i]);
        db.exec("BEGIN IMMEDIATE");
        merger.copy_input_problems();
        db.exec("COMMIT");
        merger.detach();
      });
    }
    for (size_t i = 0; i < shards.size(); ++i) {
      merger.attach(static_cast<int64_t>(i), shards[i]);
      db.exec("BEGIN IMMEDIATE");
      try {
        naming_shard(shards[i], [&] {
          for (int64_t file : merger.files()) {
            FileOutcome outcome = merger.copy_file(file);
            if (outcome.duplicate_of.empty()) {
              result.events += outcome.events;
              result.errors += outcome.errors;
              result.bytes += outcome.bytes;
            }
            result.files.push_back(std::move(outcome));
          }
        });
        db.exec("COMMIT");
      } catch (...) {
        try {
          db.exec("ROLLBACK");
        } catch (const SqliteError&) {
        }
        throw;
      }
      merger.detach();
    }
    result.errors += static_cast<uint64_t>(db.scalar_int(kProblems).value_or(0) - problems_before);
    if (target.fresh()) {
      db.exec("PRAGMA threads=2; PRAGMA cache_size=-16384;");
    }
    create_indexes(db);
    if (!target.fresh()) end_update(db);
  }
  target.publish();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace tlscope::model
