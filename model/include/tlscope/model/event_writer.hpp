// The single SQLite writer of an ingest: files, events, payloads (deduplicated by MD5),
// ingest_errors and the typed tables, all through prepared statements inside large transactions.
// It runs on one thread; sources arrive one after another, each bracketed by begin/end_file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tlscope/model/chromium_row.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/parser/event.hpp"

namespace tlscope::model {

// What happened to one source.
struct FileOutcome {
  std::string path;
  int64_t file_id = 0;       // 0 when the file was a duplicate and left nothing behind
  std::string duplicate_of;  // path of the already stored file with the same content
  bool completed = false;
  uint64_t bytes = 0, lines = 0, events = 0, errors = 0;
};

// Who turns chromium_event records into chromium_events rows: the writer itself, or its caller
// (ingest builds them on the parse threads and hands them over with add_chromium_row).
enum class ChromiumRows { kBuiltByWriter, kFromCaller };

// How long the text an Event views (metadata, payload) lives after add_event returns: only
// during the call (the writer copies what it keeps), or until the caller's next release_texts()
// (ingest's batches: the writer then keeps views and writes payloads in groups without a copy).
// Held texts must also outlive checkpoint(), end_file(), finish() and the destructor, which
// write whatever still views them.
enum class EventTexts { kCopied, kHeldUntilRelease };

class EventWriter {
 public:
  // `db` must already have the schema; the writer opens a transaction at once.
  explicit EventWriter(Connection& db, ChromiumRows chromium = ChromiumRows::kBuiltByWriter,
                       EventTexts texts = EventTexts::kCopied);
  ~EventWriter();
  EventWriter(const EventWriter&) = delete;
  EventWriter& operator=(const EventWriter&) = delete;

  void begin_file(const parser::SourceInfo& source);
  void add_event(const parser::Event& event);
  void add_error(const parser::ParseError& error);
  // A row built by a ChromiumPairing for the current file (kFromCaller only), after the event it
  // belongs to was added.
  void add_chromium_row(const ChromiumRow& row);
  // Fills in the file's counts and, last of all, completed = 1 (when the parser read it to the
  // end). A file whose content is already stored is removed again and reported as a duplicate.
  FileOutcome end_file(const parser::SourceSummary& summary);

  // A problem not tied to a file (a missing path): an ingest_errors row with file_id NULL.
  void add_input_problem(std::string_view problem);

  // kHeldUntilRelease: the texts of the events handed in so far are about to die, so the rows
  // that still view them are written now.
  void release_texts();

  // Commits the open transaction and starts a new one, bounding how much a crash can lose.
  void checkpoint();
  // Commits and builds the indexes. The writer is unusable afterwards.
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tlscope::model
