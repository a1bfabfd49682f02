// Parallel ingest through shards (see sharded_ingest.hpp).
#include "sharded_ingest.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "ingest_target.hpp"
#include "shard_merger.hpp"
#include "tlscope/model/event_writer.hpp"
#include "tlscope/model/schema.hpp"

namespace tlscope::model {
namespace {

// A run of consecutive input files written into one shard. A shard has fixed costs (its schema,
// attaching it, preparing the copy statements: about 1.5 ms of CPU), so small files are grouped;
// large ones get a shard each.
struct Chunk {
  size_t first = 0, end = 0;  // sources [first, end)
};

// Consecutive files up to about total / (4 x jobs) bytes (at least one file, at most 64 MiB), so
// every worker gets several chunks and the last one to finish holds little.
std::vector<Chunk> cut_chunks(const parser::InputPlan& plan, unsigned jobs) {
  std::vector<uint64_t> sizes;
  uint64_t total = 0;
  for (const auto& s : plan.sources) {
    struct stat st;
    uint64_t size = s.path != "-" && ::stat(s.path.c_str(), &st) == 0
                        ? static_cast<uint64_t>(st.st_size)
                        : uint64_t{1} << 20;  // stdin: unknown, taken as 1 MiB
    sizes.push_back(size);
    total += size;
  }
  uint64_t target = std::min<uint64_t>(uint64_t{64} << 20, total / (4 * uint64_t{jobs}) + 1);
  std::vector<Chunk> chunks;
  uint64_t bytes = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (chunks.empty() || bytes >= target) {
      chunks.push_back(Chunk{i, i});
      bytes = 0;
    }
    chunks.back().end = i + 1;
    bytes += sizes[i];
  }
  return chunks;
}

// Parse events go straight into the worker's own writer: parsing and writing share a thread,
// and the parallelism is across files.
class WriterSink final : public parser::EventSink {
 public:
  WriterSink(EventWriter& writer, std::vector<FileOutcome>& outcomes)
      : writer_(writer), outcomes_(outcomes) {}
  void on_source_begin(const parser::SourceInfo& source) override { writer_.begin_file(source); }
  void on_event(const parser::Event& event) override { writer_.add_event(event); }
  void on_error(const parser::ParseError& error) override { writer_.add_error(error); }
  void on_source_end(const parser::SourceSummary& summary) override {
    outcomes_.push_back(writer_.end_file(summary));
  }

 private:
  EventWriter& writer_;
  std::vector<FileOutcome>& outcomes_;
};

// One chunk's shard, handed from its worker to the merging thread.
struct ShardSlot {
  std::unique_ptr<ScratchDatabase> shard;
  std::vector<FileOutcome> outcomes;  // as the shard's writer saw them (repeats within it too)
  std::exception_ptr error;
  bool done = false;
};

void write_shard(const std::string& path, const parser::InputPlan& plan, const Chunk& chunk,
                 std::vector<FileOutcome>& outcomes) {
  Connection db(path);
  apply_bulk_load_pragmas(db);
  // A shard is read once, by the merge: a smaller cache keeps N workers' RSS in budget.
  db.exec("PRAGMA cache_size=-16384");
  create_schema(db);
  EventWriter writer(db);  // builds the chromium rows itself; commits when it goes
  WriterSink sink(writer, outcomes);
  for (size_t i = chunk.first; i < chunk.end; ++i) parser::parse_source(plan.sources[i], sink);
}

}  // namespace

void write_sources_sharded(Connection& db, const std::string& db_path,
                           const parser::InputPlan& plan, const IngestOptions& options,
                           uint64_t bytes_total, IngestResult& result,
                           std::chrono::steady_clock::time_point start) {
  ShardMerger merger(db);
  db.exec("BEGIN IMMEDIATE");
  for (const auto* list : {&plan.problems, &plan.unreadable}) {
    for (const std::string& problem : *list) {
      merger.add_input_problem(problem);
      result.problems.push_back(problem);
    }
  }
  db.exec("COMMIT");

  const std::vector<Chunk> chunks = cut_chunks(plan, std::max(1u, options.jobs));
  const size_t n = chunks.size();
  std::vector<ShardSlot> slots(n);
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<size_t> next{0};
  bool stop = false;   // under `mutex`
  size_t merged = 0;   // under `mutex`: chunks merged so far
  // Workers run at most this many chunks ahead of the merge, which bounds the scratch space.
  const size_t ahead = 2 * static_cast<size_t>(options.jobs);
  unsigned jobs = std::max(1u, std::min<unsigned>(options.jobs, static_cast<unsigned>(n)));
  std::vector<std::thread> workers;
  for (unsigned j = 0; j < jobs; ++j) {
    workers.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < n;) {
        {
          std::unique_lock lock(mutex);
          ready.wait(lock, [&] { return stop || i < merged + ahead; });
          if (stop) return;
        }
        ShardSlot slot;
        try {
          slot.shard = std::make_unique<ScratchDatabase>(db_path);
          write_shard(slot.shard->path(), plan, chunks[i], slot.outcomes);
        } catch (...) {
          slot.error = std::current_exception();
        }
        slot.done = true;
        std::lock_guard lock(mutex);
        slots[i] = std::move(slot);
        ready.notify_all();
      }
    });
  }
  auto finish_workers = [&] {
    {
      std::lock_guard lock(mutex);
      stop = true;
      ready.notify_all();
    }
    for (auto& t : workers) t.join();
  };

  IngestProgress progress;
  progress.bytes_total = bytes_total;
  try {
    for (size_t i = 0; i < n; ++i) {
      ShardSlot slot;
      {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] { return slots[i].done; });
        slot = std::move(slots[i]);
      }
      if (slot.error) std::rethrow_exception(slot.error);
      merger.attach(static_cast<int64_t>(i), slot.shard->path());
      std::vector<int64_t> files = merger.files();
      size_t next_file = 0;
      for (FileOutcome& seen : slot.outcomes) {
        // A repeat within the shard was already taken out by its writer: only the note remains.
        FileOutcome outcome = seen;
        if (seen.duplicate_of.empty() && next_file < files.size()) {
          // Each file in a transaction of its own: an append keeps every file merged before a
          // kill, and never shows a file half-merged.
          db.exec("BEGIN IMMEDIATE");
          try {
            outcome = merger.copy_file(files[next_file++]);
            db.exec("COMMIT");
          } catch (...) {
            try {
              db.exec("ROLLBACK");
            } catch (const SqliteError&) {
            }
            throw;
          }
        }
        if (outcome.duplicate_of.empty()) {
          result.events += outcome.events;
          result.errors += outcome.errors;
          result.bytes += outcome.bytes;
        }
        progress.bytes_done += outcome.bytes;
        result.files.push_back(std::move(outcome));
        if (options.progress) options.progress(progress);
      }
      merger.detach();
      slot.shard.reset();  // the scratch file goes as soon as it is merged
      std::lock_guard lock(mutex);
      merged = i + 1;
      ready.notify_all();
    }
  } catch (...) {
    finish_workers();
    throw;
  }
  finish_workers();
  result.errors += result.problems.size();

  auto index_start = std::chrono::steady_clock::now();
  // As after a single writer's load: the sorter may use the second core now.
  db.exec("PRAGMA threads=2; PRAGMA cache_size=-16384;");
  create_indexes(db);
  auto end = std::chrono::steady_clock::now();
  result.seconds = std::chrono::duration<double>(end - start).count();
  result.index_seconds = std::chrono::duration<double>(end - index_start).count();
}

}  // namespace tlscope::model
