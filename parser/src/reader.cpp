// parse_source: the calling thread reads and cuts chunks and delivers results in input order;
// worker threads parse chunks. MD5 over payloads dominates parsing, so spreading whole chunks
// over both cores is what makes a single file fast.
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "byte_source.hpp"
#include "chunk_parser.hpp"
#include "chunk_splitter.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::parser {
namespace {

// Turns chunk-relative results into absolute events and errors and hands them to the sink.
class Delivery {
 public:
  Delivery(const SourceInfo& source, EventSink& sink, SourceSummary& summary)
      : source_(source), sink_(sink), summary_(summary) {}

  void deliver(Chunk& chunk) {
    ChunkResult& r = chunk.result;
    size_t next_error = 0, next_event = 0;
    for (size_t k = 0; k < r.order_is_error.size(); ++k) {
      if (r.order_is_error[k]) {
        const ChunkError& e = r.errors[next_error++];
        // A run of bad lines cut by a chunk boundary is still one row: the previous chunk's
        // open run takes in this chunk's leading one.
        if (k == 0 && held_ && e.mergeable && e.line == 0 && e.kind == held_->kind) {
          held_->line_count += e.line_count;
        } else {
          flush_held();
          hold(e, chunk);
        }
        bool run_stays_open = k + 1 == r.order_is_error.size() && r.ends_in_open_run;
        if (!run_stays_open) flush_held();
      } else {
        flush_held();
        Event& ev = r.events[next_event++];
        ev.source_id = source_.source_id;
        ev.line += base_line_ + 1;
        ev.byte_offset += chunk.base_offset;
        summary_.events++;
        sink_.on_event(ev);
      }
    }
    LineAccounting& lines = summary_.lines;
    lines.total_lines += r.lines.total_lines;
    lines.envelope_lines += r.lines.envelope_lines;
    lines.payload_lines += r.lines.payload_lines;
    lines.blank_lines += r.lines.blank_lines;
    lines.error_lines += r.lines.error_lines;
    base_line_ += r.lines.total_lines;
  }

  // Delivers an error still held open at the end of the input.
  void finish() { flush_held(); }

  // An error not found in the text: I/O, empty input. `line` 0 means "not line-specific".
  void report_source_problem(ErrorKind kind, uint64_t line, const std::string& message) {
    flush_held();
    ParseError pe;
    pe.source_id = source_.source_id;
    pe.line = line;
    pe.byte_offset = summary_.bytes;
    pe.line_count = 0;
    pe.kind = kind;
    pe.detail = message;
    pe.reason = source_.path;
    if (line) pe.reason.append(":").append(std::to_string(line));
    pe.reason.append(": ").append(message);
    report(pe);
  }

 private:
  // Errors wait here until something else is delivered, in case the next chunk continues them;
  // the chunk's bytes are reused, so the excerpt is copied.
  void hold(const ChunkError& e, const Chunk& chunk) {
    ParseError& pe = held_.emplace();
    pe.source_id = source_.source_id;
    pe.line = base_line_ + e.line + 1;
    pe.byte_offset = chunk.base_offset + e.byte_offset;
    pe.line_count = e.line_count;
    pe.kind = e.kind;
    held_message_ = e.message;
    held_excerpt_.assign(chunk.bytes.data() + e.excerpt_begin, e.excerpt_len);
  }

  void flush_held() {
    if (!held_) return;
    ParseError& pe = *held_;
    pe.detail = held_message_;
    pe.reason = source_.path + ":" + std::to_string(pe.line) + ": " + held_message_;
    if (pe.line_count > 1) pe.reason += " (" + std::to_string(pe.line_count) + " lines)";
    pe.excerpt = held_excerpt_;
    report(pe);
    held_.reset();
  }

  void report(const ParseError& pe) {
    summary_.errors++;
    sink_.on_error(pe);
  }

  const SourceInfo& source_;
  EventSink& sink_;
  SourceSummary& summary_;
  uint64_t base_line_ = 0;
  std::optional<ParseError> held_;
  std::string held_message_, held_excerpt_;
};

// Workers parse chunks from a FIFO; a ring of slots keeps results in input order.
class ParallelParse {
 public:
  ParallelParse(unsigned threads, uint64_t max_record_bytes)
      : max_record_bytes_(max_record_bytes), slots_(2 * threads + 2) {
    for (auto& slot : slots_) slot.chunk = std::make_unique<Chunk>();
    for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }

  ~ParallelParse() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_ready_.notify_all();
    for (auto& t : workers_) t.join();
  }

  // `first` is a chunk the caller already read from `splitter`.
  void run(std::unique_ptr<Chunk> first, ChunkSplitter& splitter, Delivery& delivery) {
    uint64_t submitted = 0, delivered = 0;
    bool input_done = false;
    slots_[0].chunk = std::move(first);
    submit(0);
    ++submitted;
    while (true) {
      while (!input_done && submitted - delivered < slots_.size()) {
        size_t index = submitted % slots_.size();
        if (!splitter.next(*slots_[index].chunk)) {
          input_done = true;
          break;
        }
        submit(index);
        ++submitted;
      }
      if (delivered == submitted) return;
      size_t index = delivered % slots_.size();
      {
        std::unique_lock<std::mutex> lock(mutex_);
        chunk_done_.wait(lock, [&] { return slots_[index].done; });
      }
      delivery.deliver(*slots_[index].chunk);
      ++delivered;
    }
  }

 private:
  struct Slot {
    std::unique_ptr<Chunk> chunk;
    bool done = false;
  };

  void submit(size_t index) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      slots_[index].done = false;
      queue_.push_back(index);
    }
    work_ready_.notify_one();
  }

  void work() {
    ChunkParser parser;
    while (true) {
      size_t index;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_ready_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        index = queue_.front();
        queue_.pop_front();
      }
      parser.parse(*slots_[index].chunk, max_record_bytes_);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        slots_[index].done = true;
      }
      chunk_done_.notify_one();
    }
  }

  uint64_t max_record_bytes_;
  std::vector<Slot> slots_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_, chunk_done_;
  std::deque<size_t> queue_;
  bool stop_ = false;
};

void parse_chunks(ChunkSplitter& splitter, Delivery& delivery, const ReaderOptions& options) {
  auto chunk = std::make_unique<Chunk>();
  if (!splitter.next(*chunk)) return;
  unsigned threads = options.threads;
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
  if (threads <= 1 || chunk->is_last) {
    ChunkParser parser;
    do {
      parser.parse(*chunk, options.max_record_bytes);
      delivery.deliver(*chunk);
    } while (splitter.next(*chunk));
    return;
  }
  ParallelParse pool(threads, options.max_record_bytes);
  pool.run(std::move(chunk), splitter, delivery);
}

}  // namespace

SourceSummary parse_source(const SourceInfo& source, EventSink& sink,
                           const ReaderOptions& options) {
  SourceSummary summary;
  summary.source_id = source.source_id;
  sink.on_source_begin(source);
  Delivery delivery(source, sink, summary);

  std::string error;
  auto bytes = open_byte_source(source.path, options.chunk_bytes, error);
  if (!bytes) {
    delivery.report_source_problem(ErrorKind::kIo, 0, "cannot open: " + error);
    sink.on_source_end(summary);
    return summary;
  }
  ChunkSplitter splitter(*bytes, options);
  parse_chunks(splitter, delivery, options);
  delivery.finish();
  summary.bytes = splitter.bytes_read();
  summary.content_hash = splitter.content_hash();
  summary.completed = splitter.read_error().empty();
  if (!summary.completed) {
    uint64_t line = summary.lines.total_lines;
    delivery.report_source_problem(
        ErrorKind::kIo, line,
        splitter.read_error() + "; reading stopped after line " + std::to_string(line) + " (byte " +
            std::to_string(summary.bytes) + "), the records before it are kept");
  } else if (summary.bytes == 0) {
    delivery.report_source_problem(ErrorKind::kTruncated, 0, "input is empty");
  }
  sink.on_source_end(summary);
  return summary;
}

}  // namespace tlscope::parser
