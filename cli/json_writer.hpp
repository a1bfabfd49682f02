// Writing JSON for `--format json` (summary, compare): a small streaming writer whose strings are
// always valid JSON whatever bytes the log held: invalid UTF-8 becomes U+FFFD, control characters
// are escaped, by the one JSON string escaper the report uses (exporters/html.hpp). Hand-written
// rather than a JSON library: the writer needs only this much (tests/cli/json_writer_test).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tlscope::cli {

// Appends `bytes` to `out` as a JSON string literal, quotes included.
void append_json_string(std::string& out, std::string_view bytes);

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(int64_t number);
  JsonWriter& value(double number);  // a non-finite number is written as null
  JsonWriter& value(bool flag);
  JsonWriter& null();
  // A value that is JSON already (it must be: the caller made or validated it).
  JsonWriter& raw(std::string_view json);
  // Shorthands for one member.
  template <typename T>
  JsonWriter& member(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }
  JsonWriter& member_ints(std::string_view name, const std::vector<int64_t>& values);
  JsonWriter& member_strings(std::string_view name, const std::vector<std::string>& values);

  // The document, ending with a newline.
  std::string finish();

 private:
  void before_value();
  void open(char bracket);
  void close(char bracket);
  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace tlscope::cli
