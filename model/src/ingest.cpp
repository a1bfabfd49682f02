// Ingest orchestration: parse threads -> bounded per-file queues -> one writer (see ingest.hpp).
#include "tlscope/model/ingest.hpp"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "bounded_queue.hpp"
#include "chromium_pairing.hpp"
#include "incomplete_files.hpp"
#include "ingest_target.hpp"
#include "interrupt_on_cancel.hpp"
#include "tlscope/model/event_batch.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/parser/compile_id.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::model {
namespace {

// 4 MiB arenas, 4 per queue: with one parse thread at most ~5 batches (20 MiB) are in flight.
constexpr size_t kArenaBytes = size_t{4} << 20;
constexpr size_t kQueueDepth = 4;
// Commit every this many batches so a large file is not one giant transaction in the cache.
constexpr unsigned kBatchesPerCommit = 64;
// An append commits more often (every 8 MiB of batches), so that a kill keeps most of the file
// being written, marked incomplete, instead of none of it: WAL commits are cheap.
constexpr unsigned kAppendBatchesPerCommit = 2;

using BatchPtr = std::unique_ptr<EventBatch>;
using BatchQueue = BoundedQueue<BatchPtr>;

// Thrown on a parse thread when the writer has closed its queue (it failed or was cancelled):
// parsing the rest of a 1 GB file for nobody would keep a cancelled ingest alive for seconds.
struct WriterGaveUp {};
// Thrown on the writer thread when IngestOptions::cancelled says stop.
struct StopRequested {};

bool cancel_requested(const IngestOptions& options) {
  return options.cancelled && options.cancelled();
}

// Written batches go back to the parse threads: arenas are reused instead of re-faulted.
class BatchPool {
 public:
  BatchPtr take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        BatchPtr b = std::move(free_.back());
        free_.pop_back();
        return b;
      }
    }
    return std::make_unique<EventBatch>(kArenaBytes);
  }
  void give(BatchPtr b) {
    b->clear();
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(b));
  }

 private:
  std::mutex mutex_;
  std::vector<BatchPtr> free_;
};

// How far the parse threads may run ahead of the writer, in files. Every file parsed ahead holds
// its batches (4 MiB arenas) until the writer reaches it: with no bound, a folder of 100,000 small
// files had the parsers race to the end while the writer lagged, and took a fresh arena (an mmap,
// later an munmap) for every file.
class Lookahead {
 public:
  explicit Lookahead(size_t files) : files_(files) {}
  // Blocks a parse thread until file `i` is within reach of the writer (or the writer gave up).
  void wait_for(size_t i) {
    std::unique_lock lock(mutex_);
    moved_.wait(lock, [&] { return stopped_ || i < written_ + files_; });
  }
  void written(size_t count) {
    {
      std::lock_guard lock(mutex_);
      written_ = count;
    }
    moved_.notify_all();
  }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopped_ = true;
    }
    moved_.notify_all();
  }

 private:
  const size_t files_;
  std::mutex mutex_;
  std::condition_variable moved_;
  size_t written_ = 0;
  bool stopped_ = false;
};

// Runs on a parse thread: copies what the parser shows into batches for the writer, and builds
// the chromium_events rows there, so the writer only inserts them.
class BatchingSink final : public parser::EventSink {
 public:
  BatchingSink(BatchQueue& out, BatchPool& pool) : out_(out), pool_(pool), batch_(pool.take()) {}
  // The batch taken after the last flush goes back unused: dropping it cost an arena (an mmap and
  // an munmap of 4 MiB) for every file, most of a small file's ingest.
  ~BatchingSink() override {
    if (batch_) pool_.give(std::move(batch_));
  }
  BatchingSink(const BatchingSink&) = delete;
  BatchingSink& operator=(const BatchingSink&) = delete;

  void on_source_begin(const parser::SourceInfo& source) override {
    batch_->begin = source;
    source_rank_ = source.rank;
    events_ = 0;
    pairing_.begin_file();
  }
  void on_event(const parser::Event& event) override {
    if (!batch_->add(event)) {
      flush();
      batch_->add(event);
    }
    uint64_t ordinal = events_++;
    if (event.kind != "chromium_event") return;
    rows_.clear();
    std::optional<int64_t> rank = event.rank ? event.rank : source_rank_;
    pairing_.add(event, ordinal, rank, parser::compile_id_string(event.context), rows_);
    for (ChromiumRow& row : rows_) batch_->add(std::move(row), batch_->events().size() - 1);
  }
  void on_error(const parser::ParseError& error) override {
    if (!batch_->add(error)) {
      flush();
      batch_->add(error);
    }
  }
  void on_source_end(const parser::SourceSummary& summary) override {
    rows_.clear();
    pairing_.end_file(rows_);
    for (ChromiumRow& row : rows_) batch_->add(std::move(row), batch_->events().size());
    batch_->end = summary;
    flush();
  }

 private:
  void flush() {
    if (!out_.push(std::move(batch_))) throw WriterGaveUp{};
    batch_ = pool_.take();
  }

  BatchQueue& out_;
  BatchPool& pool_;
  BatchPtr batch_;
  std::optional<int64_t> source_rank_;
  uint64_t events_ = 0;  // events of the current file so far
  ChromiumPairing pairing_;
  std::vector<ChromiumRow> rows_;
};

double thread_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  auto secs = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

uint64_t size_on_disk(const parser::SourceInfo& s) {
  struct stat st;
  if (s.path == "-" || ::stat(s.path.c_str(), &st) != 0) return 0;
  return static_cast<uint64_t>(st.st_size);
}

// Parse threads -> queues -> the one writer, for every source of the plan.
// An append (`durable`) commits each file's row as soon as it exists: whenever it is killed, the
// file is then in the database marked incomplete, for summary and report to flag.
void write_sources(Connection& db, const parser::InputPlan& plan, const IngestOptions& options,
                   bool durable, IngestResult& result,
                   std::chrono::steady_clock::time_point start) {
  // The batch being written is declared before the writer so that it outlives it: the writer
  // holds views of its texts until release_texts, and its destructor (on an exception) still
  // writes the rows that view them.
  BatchPtr batch;
  EventWriter writer(db, ChromiumRows::kFromCaller, EventTexts::kHeldUntilRelease);
  for (const auto* list : {&plan.problems, &plan.unreadable}) {
    for (const std::string& problem : *list) {
      writer.add_input_problem(problem);
      result.problems.push_back(problem);
    }
  }

  const size_t n = plan.sources.size();
  IngestProgress progress;
  bool total_known = true;
  for (const auto& s : plan.sources) {
    uint64_t size = size_on_disk(s);
    if (s.gzip || size == 0) total_known = false;
    progress.bytes_total += size;
  }
  if (!total_known) progress.bytes_total = 0;
  progress.files_total = n;

  std::vector<std::unique_ptr<BatchQueue>> queues;
  const size_t depth = options.queue_depth > 0 ? options.queue_depth : kQueueDepth;
  for (size_t i = 0; i < n; ++i) queues.push_back(std::make_unique<BatchQueue>(depth));
  BatchPool pool;
  std::atomic<size_t> next{0};
  unsigned jobs = std::max(1u, std::min<unsigned>(options.jobs, static_cast<unsigned>(n)));
  // The file the writer waits for is always within reach, so no parse thread waits on it.
  Lookahead lookahead(2 * size_t{jobs} + 2);
  std::vector<std::thread> parsers;
  for (unsigned j = 0; j < jobs && n > 0; ++j) {
    parsers.emplace_back([&] {
      try {
        for (size_t i; (i = next.fetch_add(1)) < n;) {
          lookahead.wait_for(i);
          BatchingSink sink(*queues[i], pool);
          parser::parse_source(plan.sources[i], sink);
        }
      } catch (const WriterGaveUp&) {
        // The writer stopped reading: so does this thread, mid-file.
      }
    });
  }

  // The writer takes sources strictly in input order, so event ids follow files in ingest order
  // even when later files were parsed ahead.
  auto index_start = start;
  try {
    unsigned batches = 0;
    uint64_t done_before_file = 0;
    for (size_t i = 0; i < n; ++i) {
      for (;;) {
        batch = queues[i]->pop();
        if (batch->begin) {
          writer.begin_file(*batch->begin);
          if (durable) writer.checkpoint();
        }
        // Rows built on the parse side go in right after the event that completed them.
        const auto& events = batch->events();
        const auto& rows = batch->chromium_rows();
        size_t r = 0;
        for (size_t e = 0; e < events.size(); ++e) {
          writer.add_event(events[e]);
          for (; r < rows.size() && rows[r].after_event == e; ++r) {
            writer.add_chromium_row(rows[r].row);
          }
        }
        for (; r < rows.size(); ++r) writer.add_chromium_row(rows[r].row);
        for (const parser::ParseError& e : batch->errors()) writer.add_error(e);
        progress.events += events.size();
        progress.errors += batch->errors().size();
        if (++batches % (durable ? kAppendBatchesPerCommit : kBatchesPerCommit) == 0) {
          writer.checkpoint();
        }
        bool end = batch->end.has_value();
        if (end) {
          FileOutcome outcome = writer.end_file(*batch->end);
          result.events += outcome.events;
          result.errors += outcome.errors;
          result.bytes += outcome.bytes;
          done_before_file += outcome.bytes;
          progress.bytes_done = done_before_file;
          ++progress.files_done;
          result.files.push_back(std::move(outcome));
        } else if (!batch->events().empty()) {
          progress.bytes_done = done_before_file + batch->events().back().byte_offset;
        }
        writer.release_texts();
        if (options.progress) options.progress(progress);
        pool.give(std::move(batch));
        if (cancel_requested(options)) throw StopRequested{};
        if (end) break;
      }
      lookahead.written(i + 1);
    }
    index_start = std::chrono::steady_clock::now();
    InterruptOnCancel interrupt(db.handle(), options.cancelled);
    writer.finish();
  } catch (...) {
    lookahead.stop();
    for (auto& q : queues) q->close();
    for (auto& t : parsers) t.join();
    throw;
  }
  for (auto& t : parsers) t.join();
  result.errors += result.problems.size();
  auto end = std::chrono::steady_clock::now();
  result.seconds = std::chrono::duration<double>(end - start).count();
  result.index_seconds = std::chrono::duration<double>(end - index_start).count();
}

// Takes the files (and the input problems) of a cancelled append out again, in one transaction:
// the database is as it was before the run, apart from earlier incomplete copies it replaced.
void roll_back_append(Connection& db, int64_t files_before, int64_t errors_before) {
  db.exec("BEGIN IMMEDIATE");
  try {
    std::vector<int64_t> ids;
    Statement added = db.prepare("SELECT id FROM files WHERE id > ? ORDER BY id");
    added.bind(1, files_before);
    while (added.step()) ids.push_back(added.int64(0));
    for (int64_t id : ids) remove_file_rows(db, id);
    Statement problems = db.prepare("DELETE FROM ingest_errors WHERE id > ? AND file_id IS NULL");
    problems.bind(1, errors_before);
    problems.run();
    db.exec("COMMIT");
  } catch (...) {
    try {
      db.exec("ROLLBACK");
    } catch (const SqliteError&) {
    }
    throw;
  }
}

}  // namespace

void open_for_ingest(Connection& db) {
  apply_bulk_load_pragmas(db);
  create_schema(db);
}

IngestResult ingest(const std::string& db_path, const std::vector<std::string>& inputs,
                    const IngestOptions& options) {
  auto start = std::chrono::steady_clock::now();
  double cpu_start = thread_cpu_seconds();
  IngestResult result;
  parser::InputPlan plan = parser::plan_inputs(inputs);
  IngestTarget target(db_path);
  result.fresh = target.fresh();
  result.removed_leftovers = target.removed_leftovers();
  // A new file starts as the empty database made at build time (schema_template()), the same
  // file the CREATE statements would make, without running them.
  if (target.fresh()) target.write_initial_image(schema_template());
  {
    Connection db(target.write_path());
    // Before the append's pragmas switch the file to WAL: a refused database is left as it was.
    if (!target.fresh()) refuse_other_schema_version(db);
    target.apply_pragmas(db);
    if (options.page_cache_kib > 0)
      db.exec("PRAGMA cache_size=-" + std::to_string(options.page_cache_kib));
    if (!target.fresh()) {
      create_schema(db);
      std::vector<std::string> paths;
      for (const auto& s : plan.sources) paths.push_back(s.path);
      result.replaced = remove_incomplete_files(db, paths);
    }
    const int64_t files_before =
        db.scalar_int("SELECT coalesce(max(id), 0) FROM files").value_or(0);
    const int64_t errors_before =
        db.scalar_int("SELECT coalesce(max(id), 0) FROM ingest_errors").value_or(0);
    try {
      write_sources(db, plan, options, !target.fresh(), result, start);
    } catch (...) {
      // A stop between batches, or SQLite interrupted while building indexes: either way a
      // cancel. A fresh database is dropped by ~IngestTarget; an append is undone here.
      if (!cancel_requested(options)) throw;
      if (!target.fresh()) {
        roll_back_append(db, files_before, errors_before);
        end_update(db);
      }
      throw IngestCancelled(db_path);
    }
    if (!target.fresh()) end_update(db);
    if (target.fresh() && options.before_publish) options.before_publish(db, result);
  }
  target.publish();
  result.writer_cpu_seconds = thread_cpu_seconds() - cpu_start;
  return result;
}

}  // namespace tlscope::model
