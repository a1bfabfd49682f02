// strings (the per-file interned filename table from `str` events) and stack_frames (frames of
// dynamo_start stacks and top-level `stack` fields, filenames resolved through strings).
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "typed_table.hpp"

namespace tlscope::model {

class StackFrameTable {
 public:
  explicit StackFrameTable(Connection& db);

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

  Statement insert_string_;
  Statement insert_frame_;
  simdjson::ondemand::parser parser_;
  std::string padded_;
  std::unordered_map<int64_t, std::string> filenames_;
};

}  // namespace tlscope::model
