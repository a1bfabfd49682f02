// One fuzz input through the parser alone, or through the parser and the store into an
// in-memory database. Shared by the libFuzzer targets (fuzz/*_fuzz.cpp) and by the Catch2 test
// that replays every input the fuzzer once crashed on (tests/fuzz_regressions/).
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "tlscope/model/event_writer.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/schema.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::fuzz {

// The bytes as a file the parser can open by path: an anonymous memory file (a regular file to
// fstat) named through /proc/self/fd. No temporary file is left behind, whatever happens.
class MemoryFile {
 public:
  explicit MemoryFile(std::string_view bytes) {
    fd_ = memfd_create("tlscope-fuzz", MFD_CLOEXEC);
    if (fd_ < 0) std::abort();
    for (size_t done = 0; done < bytes.size();) {
      ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// Small reads and batches, one thread: record boundaries fall across chunk and batch edges, and
// every run of an input does the same thing.
inline parser::ReaderOptions fuzz_reader_options() {
  parser::ReaderOptions o;
  o.chunk_bytes = 4096;
  o.batch_bytes = 16384;
  o.threads = 1;
  o.max_record_bytes = 1 << 20;
  return o;
}

// What the parser promises whatever the bytes: every line is accounted to exactly one bucket,
// and the summary's counts are the calls the sink saw. Aborts (a fuzzer finding) when not.
inline void check_summary(const parser::SourceSummary& s, uint64_t events, uint64_t errors) {
  const parser::LineAccounting& l = s.lines;
  bool ok = l.envelope_lines + l.payload_lines + l.blank_lines + l.error_lines == l.total_lines &&
            s.events == events && s.errors == errors;
  if (!ok) {
    std::fprintf(stderr,
                 "parser invariant broken: lines %llu = %llu + %llu + %llu + %llu; events %llu/%llu"
                 " errors %llu/%llu\n",
                 (unsigned long long)l.total_lines, (unsigned long long)l.envelope_lines,
                 (unsigned long long)l.payload_lines, (unsigned long long)l.blank_lines,
                 (unsigned long long)l.error_lines, (unsigned long long)s.events,
                 (unsigned long long)events, (unsigned long long)s.errors,
                 (unsigned long long)errors);
    std::abort();
  }
}

// Bytes -> events, with the parser's invariants checked.
inline void parse_bytes(std::string_view bytes) {
  struct CountingSink final : parser::EventSink {
    uint64_t events = 0, errors = 0;
    void on_source_begin(const parser::SourceInfo&) override {}
    void on_event(const parser::Event&) override { ++events; }
    void on_error(const parser::ParseError&) override { ++errors; }
    void on_source_end(const parser::SourceSummary&) override {}
  } sink;
  MemoryFile file(bytes);
  parser::SourceInfo source;
  source.path = file.path();
  source.rank = 0;
  parser::SourceSummary s = parser::parse_source(source, sink, fuzz_reader_options());
  check_summary(s, sink.events, sink.errors);
}

// The empty store (the schema, in the bulk-load page size), built once per process: building it for
// each input was most of an execution's time under the sanitizers (SQLite's allocations go through
// ASan's allocator). Each input gets a fresh copy.
inline const std::string& empty_store_image() {
  static const std::string image = [] {
    model::Connection db(":memory:");
    model::open_for_ingest(db);
    sqlite3_int64 size = 0;
    unsigned char* bytes = sqlite3_serialize(db.handle(), "main", &size, 0);
    if (!bytes) std::abort();
    std::string out(reinterpret_cast<const char*>(bytes), static_cast<size_t>(size));
    sqlite3_free(bytes);
    return out;
  }();
  return image;
}

inline void load_empty_store(model::Connection& db) {
  const std::string& image = empty_store_image();
  auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(image.size()));
  if (!copy) std::abort();
  std::memcpy(copy, image.data(), image.size());
  if (sqlite3_deserialize(db.handle(), "main", copy, static_cast<sqlite3_int64>(image.size()),
                          static_cast<sqlite3_int64>(image.size()),
                          SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) !=
      SQLITE_OK) {
    std::abort();
  }
  model::apply_bulk_load_pragmas(db);  // per connection, as open_for_ingest sets them
}

// Bytes -> events -> the store's tables in an in-memory database, as `tlscope ingest` writes
// them. Bad input must become rows; a thrown SqliteError is a finding like a crash.
inline void store_bytes(std::string_view bytes) {
  model::Connection db(":memory:");
  load_empty_store(db);
  struct StoreSink final : parser::EventSink {
    explicit StoreSink(model::EventWriter& w) : writer(w) {}
    model::EventWriter& writer;
    void on_source_begin(const parser::SourceInfo& s) override { writer.begin_file(s); }
    void on_event(const parser::Event& e) override { writer.add_event(e); }
    void on_error(const parser::ParseError& e) override { writer.add_error(e); }
    void on_source_end(const parser::SourceSummary& s) override { writer.end_file(s); }
  };
  model::EventWriter writer(db);
  StoreSink sink(writer);
  MemoryFile file(bytes);
  parser::SourceInfo source;
  source.path = file.path();
  source.rank = 0;
  parser::parse_source(source, sink, fuzz_reader_options());
  writer.finish();
  // Every event the parser gave is a row.
  auto events = db.scalar_int("SELECT count(*) FROM events");
  auto counted = db.scalar_int("SELECT events FROM files");
  if (!events || !counted || *events != *counted) {
    std::fprintf(stderr, "store invariant broken: %lld events rows, files.events %lld\n",
                 (long long)events.value_or(-1), (long long)counted.value_or(-1));
    std::abort();
  }
}

}  // namespace tlscope::fuzz
