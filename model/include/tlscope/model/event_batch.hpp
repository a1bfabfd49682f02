// Owned copies of parser events, grouped so the parse thread can hand them to the writer thread.
// The parser's views die with its callback; a batch copies their bytes into one arena whose
// buffer never moves, so the copied Events (views into the arena) stay valid until it is recycled.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "tlscope/model/chromium_row.hpp"
#include "tlscope/parser/event.hpp"

namespace tlscope::model {

class EventBatch {
 public:
  explicit EventBatch(size_t arena_bytes);

  // Copies `event` / `error`; false (nothing copied) when the arena lacks room, so the caller
  // hands this batch on and starts another. An empty batch always accepts (it grows to fit).
  bool add(const parser::Event& event);
  bool add(const parser::ParseError& error);
  // Adds rows built on the parse side, to be written after event `after_event` of this batch
  // (events().size() or more: after all of them). Always accepted; their bytes count against the
  // arena's capacity, so the next add() hands the batch on sooner.
  void add(ChromiumRow row, size_t after_event);
  // Empties the batch for reuse, keeping its arena.
  void clear();

  bool empty() const {
    return events_.empty() && errors_.empty() && chromium_.empty() && !begin && !end;
  }
  size_t bytes_used() const { return used_ + row_bytes_; }
  const std::vector<parser::Event>& events() const { return events_; }
  const std::vector<parser::ParseError>& errors() const { return errors_; }
  struct PlacedRow {
    ChromiumRow row;
    size_t after_event;
  };
  // In the order they were added, so `after_event` never decreases.
  const std::vector<PlacedRow>& chromium_rows() const { return chromium_; }

  // Source boundaries travel in the batch stream: `begin` precedes its events, `end` follows them.
  std::optional<parser::SourceInfo> begin;
  std::optional<parser::SourceSummary> end;

 private:
  std::string_view copy(std::string_view s);
  void reserve_for(size_t bytes);

  std::unique_ptr<char[]> arena_;
  size_t capacity_ = 0;
  size_t used_ = 0;
  size_t row_bytes_ = 0;
  std::vector<parser::Event> events_;
  std::vector<parser::ParseError> errors_;
  std::vector<PlacedRow> chromium_;
};

}  // namespace tlscope::model
