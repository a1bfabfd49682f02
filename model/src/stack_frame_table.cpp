// strings, stacks and event_stacks rows (see stack_frame_table.hpp).
#include "stack_frame_table.hpp"

#include <cstring>

#include "tlscope/parser/md5.hpp"

namespace tlscope::model {

namespace od = simdjson::ondemand;

StackFrameTable::StackFrameTable(Connection& db)
    : insert_string_(db.prepare("INSERT INTO strings(file_id, idx, filename) VALUES(?,?,?)")),
      insert_stack_frame_(db.prepare(
          "INSERT INTO stacks(stack_id, depth, filename_idx, filename, line, name, loc) "
          "VALUES(?,?,?,?,?,?,?)")),
      insert_event_stack_(db.prepare("INSERT INTO event_stacks(event_id, stack_id) VALUES(?,?)")) {
}

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
  // Element by element with the end checked: dereferencing an On-Demand array iterator at its end
  // is undefined behaviour (simdjson stops in "unreachable"), and `{"str": []}` is a real input.
  od::array_iterator it, end;
  if (auto err = arr.begin().get(it)) return fail(err);
  if (auto err = arr.end().get(end)) return fail(err);
  if (it == end) return fail(simdjson::INDEX_OUT_OF_BOUNDS);
  if (auto err = (*it).get_string().get(filename)) return fail(err);
  std::string name(filename);
  ++it;
  if (it == end) return fail(simdjson::INDEX_OUT_OF_BOUNDS);
  if (auto err = (*it).get_int64().get(idx)) return fail(err);
  insert_string_.bind(1, row.file_id);
  insert_string_.bind(2, idx);
  insert_string_.bind_static(3, name);
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
  frames_.clear();
  for (auto frame_result : frames) {
    od::object frame;
    if (auto err = frame_result.get_object().get(frame)) return fail(err);
    Frame f;
    for (auto field : frame) {
      std::string_view key;
      if (auto err = field.unescaped_key().get(key)) return fail(err);
      od::value v;
      if (auto err = field.value().get(v)) return fail(err);
      int64_t n = 0;
      std::string_view text;
      if (key == "filename") {
        if (!v.get_int64().get(n)) f.filename_idx = n;
      } else if (key == "line") {
        if (!v.get_int64().get(n)) f.line = n;
      } else if (key == "name") {
        if (!v.get_string().get(text)) f.name = text;
      } else if (key == "loc") {
        if (!v.get_string().get(text)) f.loc = text;
      }
    }
    if (f.filename_idx) {
      auto it = filenames_.find(*f.filename_idx);
      if (it != filenames_.end()) f.filename = &it->second;
    }
    frames_.push_back(f);
  }
  if (frames_.empty()) return true;
  insert_event_stack_.bind(1, row.event_id);
  insert_event_stack_.bind(2, stack_id_of(frames_));
  insert_event_stack_.run();
  return true;
}

namespace {

// Appends a length-prefixed field (or a NULL marker) so that no two different stacks serialise
// to the same bytes.
void put_field(std::string& out, bool present, std::string_view text) {
  uint64_t n = present ? text.size() : UINT64_MAX;
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out.append(text);
}

void put_int(std::string& out, const std::optional<int64_t>& v) {
  int64_t n = v.value_or(0);
  out.push_back(v ? 1 : 0);
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
}

}  // namespace

int64_t StackFrameTable::stack_id_of(const std::vector<Frame>& frames) {
  key_bytes_.clear();
  for (const Frame& f : frames) {
    put_int(key_bytes_, f.filename_idx);
    put_field(key_bytes_, f.filename != nullptr, f.filename ? *f.filename : std::string_view());
    put_int(key_bytes_, f.line);
    put_field(key_bytes_, f.name.has_value(), f.name.value_or(""));
    put_field(key_bytes_, f.loc.has_value(), f.loc.value_or(""));
  }
  parser::Md5 md5;
  md5.update(key_bytes_);
  std::array<uint8_t, 16> digest = md5.finish();
  Md5Key key;
  std::memcpy(&key.hi, digest.data(), 8);
  std::memcpy(&key.lo, digest.data() + 8, 8);
  auto [id, inserted] = stack_ids_.find_or_insert(key, next_stack_id_);
  if (!inserted) return id;
  ++next_stack_id_;
  int64_t depth = 0;
  for (const Frame& f : frames) {
    Statement& s = insert_stack_frame_;
    s.bind(1, id);
    s.bind(2, depth++);
    s.bind(3, f.filename_idx);
    f.filename ? s.bind_static(4, *f.filename) : s.bind_null(4);
    s.bind(5, f.line);
    s.bind_static(6, f.name);
    s.bind_static(7, f.loc);
    s.run();
  }
  return id;
}

}  // namespace tlscope::model
