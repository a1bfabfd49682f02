// Reads chosen top-level fields of a JSON object into typed slots with one reused simdjson
// On-Demand parser. The typed tables (one small file each) describe their columns as FieldSpecs.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {

enum class FieldType : uint8_t {
  kInt,   // JSON integer (an integral float is accepted); booleans read as 0/1
  kReal,  // any JSON number
  kText,  // a JSON string, unescaped; a non-string value is kept as its JSON text
  kJson,  // the value's JSON text as written (arrays, objects)
};

struct FieldSpec {
  std::string_view key;
  FieldType type;
};

// One extracted value; text views stay valid until the next parse() of the same JsonFields.
struct FieldValue {
  enum class Kind : uint8_t { kNull, kInt, kReal, kText } kind = Kind::kNull;
  int64_t i = 0;
  double d = 0;
  std::string_view text;
  bool present() const { return kind != Kind::kNull; }
};

class JsonFields {
 public:
  // Parses `json` (an object) and fills `out` (resized to specs.size()) with the fields named in
  // `specs`; absent fields and JSON nulls stay kNull. Returns false with `error` set when the
  // text is not a JSON object.
  bool parse(std::string_view json, std::span<const FieldSpec> specs, std::vector<FieldValue>& out,
             std::string& error);

  // As parse(), and when the field specs[nested_field] is an object, reads the `nested` fields
  // of that object in the same walk into `nested_out` (its last occurrence counts; not an
  // object, or absent: all kNull); out[nested_field] is left kNull. This spares a copy and a
  // second parse of the object's text (chromium args: most of a chromium_event payload, read
  // only for their compile_id). Returns false on any error, the nested object's too, where
  // parse() of the whole and then of the object's text might read past it: the caller then
  // takes that two-parse path, which gives the same values whenever this one succeeds.
  bool parse_nested(std::string_view json, std::span<const FieldSpec> specs, size_t nested_field,
                    std::span<const FieldSpec> nested, std::vector<FieldValue>& out,
                    std::vector<FieldValue>& nested_out, std::string& error);

 private:
  template <typename OnField>
  bool walk(std::string_view json, std::span<const FieldSpec> specs, std::string& error,
            OnField on_field);

  simdjson::ondemand::parser parser_;
  std::string padded_;
};

// Binds `v` to parameter `index`, or NULL.
void bind_field(Statement& stmt, int index, const FieldValue& v);

// Index of `key` in `specs`; a compile-time-sized linear search is fast for the short lists here.
int field_index(std::span<const FieldSpec> specs, std::string_view key);

}  // namespace tlscope::model
