// strings (the per-file interned filename table from `str` events) and the stack tables behind
// the stack_frames view (frames of dynamo_start stacks and top-level `stack` fields, filenames
// resolved through strings). A stack is stored once in `stacks` however many events carry it
// (a 1 GB log repeats ~300 distinct frames 200,000 times); `event_stacks` links events to it.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include <vector>

#include "md5_ids.hpp"
#include "typed_table.hpp"

namespace tlscope::model {

class StackFrameTable {
 public:
  explicit StackFrameTable(Connection& db);

  // Stacks of an earlier ingest into the same database are not looked up again: new ones are
  // numbered above them (dedup is a saving, not a guarantee).
  void set_next_stack_id(int64_t id) { next_stack_id_ = id; }
  int64_t next_stack_id() const { return next_stack_id_; }
  // Forgets stacks numbered above `mark` (the rows of a file that turned out to be a duplicate).
  void erase_stacks_above(int64_t mark) {
    stack_ids_.erase_above(mark);
    next_stack_id_ = mark + 1;
  }

  // Interned indexes are per file: a new file starts an empty table.
  void begin_file() { filenames_.clear(); }
  // A `str` event: metadata ["<filename>", <index>].
  bool add_string(const EventRow& row, std::string& error);
  // Frames of a JSON array of {line, name, filename, loc} objects. With `under_key`, `json` is
  // an object and the array is its field of that name (dynamo_start's {"stack": [...]}).
  bool add_frames(const EventRow& row, std::string_view json, std::string_view under_key,
                  std::string& error);

 private:
  bool pad_and_iterate(std::string_view json, simdjson::ondemand::document& doc,
                       std::string& error);

  struct Frame {
    std::optional<int64_t> filename_idx, line;
    const std::string* filename = nullptr;
    std::optional<std::string_view> name, loc;
  };
  // The stack's id, its frames inserted into `stacks` first if it is new.
  int64_t stack_id_of(const std::vector<Frame>& frames);

  Statement insert_string_;
  Statement insert_stack_frame_;
  Statement insert_event_stack_;
  simdjson::ondemand::parser parser_;
  std::string padded_;
  std::unordered_map<int64_t, std::string> filenames_;
  std::vector<Frame> frames_;
  std::string key_bytes_;  // a stack's frames serialised for its MD5
  Md5Ids stack_ids_;
  int64_t next_stack_id_ = 1;
};

}  // namespace tlscope::model
