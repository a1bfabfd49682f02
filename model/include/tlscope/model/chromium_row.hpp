// One chromium_event_rows row, ready to insert. It is built from a chromium_event payload (a B row
// together with its matching E) on the thread that parses the file, so the single SQLite writer
// only binds values: reading the payload JSON costs more than the insert itself. The args stay in
// the payload; the chromium_events view reads (and for a matched B, merges) them when asked.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace tlscope::model {

// A column value that owns its text.
struct ChromiumValue {
  enum class Kind : uint8_t { kNull, kInt, kReal, kText } kind = Kind::kNull;
  int64_t i = 0;
  double d = 0;
  std::string text;
};

struct ChromiumRow {
  // The row's event: events.id is the id of the file's first event plus this (0-based) ordinal.
  uint64_t event_ordinal = 0;
  // Log position among the file's chromium rows: chromium_events.id is the file's first id plus
  // this, so ids follow the log even though a B row is only complete once its E arrives.
  uint64_t chromium_ordinal = 0;
  bool has_row = true;  // false: the payload is unreadable, only `problem` is written
  std::optional<int64_t> rank;
  // name, cat, ph, ts, dur (the payload's), pid, tid: the stored columns read off the payload.
  enum Field { kName, kCat, kPh, kTs, kDur, kPid, kTid, kFieldCount };
  std::array<ChromiumValue, kFieldCount> fields;
  std::optional<double> matched_dur;  // E.ts - B.ts for a matched B row
  // For a matched B row: the E's ordinal among the file's events (end_event_id, like event_ordinal).
  std::optional<uint64_t> end_event_ordinal;
  std::string compile_id;             // empty for NULL

  // A bad_payload ingest error about this event ("" when none), with where the event is and the
  // start of its payload.
  std::string problem;
  uint64_t line = 0, byte_offset = 0;
  std::string excerpt;

  // Heap bytes held, for bounding the batches that carry rows.
  size_t bytes() const {
    size_t n = sizeof(*this) + compile_id.size() + problem.size() + excerpt.size();
    for (const ChromiumValue& v : fields) n += v.text.size();
    return n;
  }
};

}  // namespace tlscope::model
