// An independent reader for the runtime's TORCH_TRACE logs, written only from the format document
// (not from the runtime's writer): its own JSON parser and its own MD5, so the checks do not
// share the writer's bugs.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace check {

struct JField;

struct JValue {
  enum Kind { null, boolean, number, string, array, object } kind = null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<JValue> items;
  // Not std::pair<std::string, JValue>: a pair of a type still incomplete here is refused by
  // clang with libstdc++ (a vector of an incomplete class type is allowed).
  std::vector<JField> fields;
  const JValue* get(const std::string& key) const;
  bool has(const std::string& key) const { return get(key) != nullptr; }
};

struct JField {
  std::string first;
  JValue second;
};

// Parses a complete JSON text; false (with error) on any syntax error or trailing garbage.
bool parse_json(const std::string& text, JValue& out, std::string& error);

// MD5 computed the textbook way (constants from sin), lowercase hex.
std::string md5(const std::string& data);

struct Record {
  int line_no = 0;  // 1-based line of the header
  std::string key;  // the event key
  JValue envelope;
  std::string payload;  // joined payload lines (TAB stripped)
  bool has_payload = false;
};

struct LogCheck {
  std::vector<Record> records;
  std::vector<std::string> errors;  // "file:line: what"
};

// Reads and validates one log file: header shape, one-line JSON envelope with exactly one event
// key, payload MD5, string-table indices defined before use, rank on every non-str line when
// present, chromium B/E balance per name.
LogCheck read_log(const std::string& path);

}  // namespace check
