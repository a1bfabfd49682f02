// JSON output with escaping that holds for any bytes (json_writer.hpp).
#include "json_writer.hpp"

#include <cmath>
#include <cstdio>

#include "tlscope/exporters/html.hpp"

namespace tlscope::cli {

void append_json_string(std::string& out, std::string_view bytes) {
  // The report's escaper: invalid UTF-8 becomes U+FFFD, control characters (and <, >, &, which
  // keeps the output safe to embed in a page) are \u escapes.
  exporters::append_json_string(out, bytes);
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_.empty()) return;
  if (!first_.back()) out_ += ',';
  first_.back() = false;
  out_ += '\n';
  out_.append(first_.size() * 2, ' ');
}

void JsonWriter::open(char bracket) {
  before_value();
  out_ += bracket;
  first_.push_back(true);
}

void JsonWriter::close(char bracket) {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) {
    out_ += '\n';
    out_.append(first_.size() * 2, ' ');
  }
  out_ += bracket;
}

JsonWriter& JsonWriter::begin_object() {
  return open('{'), *this;
}
JsonWriter& JsonWriter::end_object() {
  return close('}'), *this;
}
JsonWriter& JsonWriter::begin_array() {
  return open('['), *this;
}
JsonWriter& JsonWriter::end_array() {
  return close(']'), *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  append_json_string(out_, name);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  append_json_string(out_, text);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t number) {
  before_value();
  out_ += std::to_string(number);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  before_value();
  if (!std::isfinite(number)) {
    out_ += "null";
    return *this;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", number);
  out_ += buf;
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_.append(json);
  return *this;
}

JsonWriter& JsonWriter::member_ints(std::string_view name, const std::vector<int64_t>& values) {
  key(name).begin_array();
  for (int64_t v : values) value(v);
  return end_array();
}

JsonWriter& JsonWriter::member_strings(std::string_view name,
                                       const std::vector<std::string>& values) {
  key(name).begin_array();
  for (const std::string& v : values) value(v);
  return end_array();
}

std::string JsonWriter::finish() {
  out_ += '\n';
  return std::move(out_);
}

}  // namespace tlscope::cli
