// Builds chromium_event_rows rows from chromium_event payloads, one file at a time: reads each
// payload's fields and matches a B event with its E (same pid, tid and name, innermost first), so
// the B row gets a duration and the E's event id (the chromium_events view merges their args).
// It touches no database, so it runs on the parse side of an ingest and leaves the writer thread
// only the inserts.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "json_fields.hpp"
#include "tlscope/model/chromium_row.hpp"
#include "tlscope/parser/event.hpp"

namespace tlscope::model {

class ChromiumPairing {
 public:
  // A new file: nothing carries over (open B events of the last file were flushed by end_file).
  void begin_file();
  // A chromium_event record, `event_ordinal` its position among the file's events, `rank` and
  // `compile_id` (PyTorch form, "" if none) those of its envelope. Rows that are complete go to
  // `out`: this event's own row unless it is a B (held until its E), and a B row closed by it.
  void add(const parser::Event& event, uint64_t event_ordinal, std::optional<int64_t> rank,
           std::string_view compile_id, std::vector<ChromiumRow>& out);
  // The file is done: its unmatched B rows, with no duration, go to `out`.
  void end_file(std::vector<ChromiumRow>& out);

 private:
  using Key = std::tuple<int64_t, int64_t, std::string>;

  JsonFields json_;
  JsonFields args_json_;
  std::vector<FieldValue> values_, arg_values_;
  std::map<Key, std::vector<ChromiumRow>> open_;
  uint64_t next_ordinal_ = 0;
};

}  // namespace tlscope::model
