// strings and stack_frames rows (see stack_frame_table.hpp).
#include "stack_frame_table.hpp"

namespace tlscope::model {

namespace od = simdjson::ondemand;

StackFrameTable::StackFrameTable(Connection& db)
    : insert_string_(db.prepare("INSERT INTO strings(file_id, idx, filename) VALUES(?,?,?)")),
      insert_frame_(db.prepare(
          "INSERT INTO stack_frames(event_id, depth, filename_idx, filename, line, name, loc) "
          "VALUES(?,?,?,?,?,?,?)")) {}

bool StackFrameTable::pad_and_iterate(std::string_view json, od::document& doc,
                                      std::string& error) {
  padded_.assign(json);
  padded_.resize(json.size() + simdjson::SIMDJSON_PADDING, ' ');
  if (auto err = parser_.iterate(padded_.data(), json.size(), padded_.size()).get(doc)) {
    error = simdjson::error_message(err);
    return false;
  }
  return true;
}

bool StackFrameTable::add_string(const EventRow& row, std::string& error) {
  od::document doc;
  if (!pad_and_iterate(row.event.metadata, doc, error)) return false;
  od::array arr;
  std::string_view filename;
  int64_t idx = 0;
  auto fail = [&](simdjson::error_code err) {
    error = std::string("str entry is not [filename, index]: ") + simdjson::error_message(err);
    return false;
  };
  if (auto err = doc.get_array().get(arr)) return fail(err);
  auto it = arr.begin();
  if (auto err = (*it).get_string().get(filename)) return fail(err);
  std::string name(filename);
  ++it;
  if (auto err = (*it).get_int64().get(idx)) return fail(err);
  insert_string_.bind_int(1, row.file_id);
  insert_string_.bind_int(2, idx);
  insert_string_.bind_text(3, name);
  insert_string_.run();
  filenames_[idx] = std::move(name);
  return true;
}

bool StackFrameTable::add_frames(const EventRow& row, std::string_view json,
                                 std::string_view under_key, std::string& error) {
  od::document doc;
  if (!pad_and_iterate(json, doc, error)) return false;
  auto fail = [&](simdjson::error_code err) {
    error = std::string("stack is not a list of frames: ") + simdjson::error_message(err);
    return false;
  };
  od::array frames;
  if (under_key.empty()) {
    if (auto err = doc.get_array().get(frames)) return fail(err);
  } else {
    od::object obj;
    if (auto err = doc.get_object().get(obj)) return fail(err);
    od::value stack;
    auto found = obj.find_field_unordered(under_key).get(stack);
    if (found == simdjson::NO_SUCH_FIELD) return true;  // a dynamo_start without a stack
    if (found) return fail(found);
    if (auto err = stack.get_array().get(frames)) return fail(err);
  }
  int64_t depth = 0;
  for (auto frame_result : frames) {
    od::object frame;
    if (auto err = frame_result.get_object().get(frame)) return fail(err);
    std::optional<int64_t> filename_idx, line;
    std::string_view name, loc;
    bool has_name = false, has_loc = false;
    for (auto field : frame) {
      std::string_view key;
      if (auto err = field.unescaped_key().get(key)) return fail(err);
      od::value v;
      if (auto err = field.value().get(v)) return fail(err);
      int64_t n = 0;
      if (key == "filename") {
        if (!v.get_int64().get(n)) filename_idx = n;
      } else if (key == "line") {
        if (!v.get_int64().get(n)) line = n;
      } else if (key == "name") {
        has_name = !v.get_string().get(name);
      } else if (key == "loc") {
        has_loc = !v.get_string().get(loc);
      }
    }
    const std::string* filename = nullptr;
    if (filename_idx) {
      auto it = filenames_.find(*filename_idx);
      if (it != filenames_.end()) filename = &it->second;
    }
    insert_frame_.bind_int(1, row.event_id);
    insert_frame_.bind_int(2, depth++);
    insert_frame_.bind_opt_int(3, filename_idx);
    filename ? insert_frame_.bind_text(4, *filename) : insert_frame_.bind_null(4);
    insert_frame_.bind_opt_int(5, line);
    has_name ? insert_frame_.bind_text(6, name) : insert_frame_.bind_null(6);
    has_loc ? insert_frame_.bind_text(7, loc) : insert_frame_.bind_null(7);
    insert_frame_.run();
  }
  return true;
}

}  // namespace tlscope::model
