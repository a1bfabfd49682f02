// Reading the JSON of logged and typed tensor values: the document, and numbers as doubles.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace tlscope::views {

// Parses `json` into `doc` (kept in `parser`); simdjson's message when it is not JSON. The parser
// copies the text into a padded buffer itself when it needs to.
inline const char* parse_json(std::string_view json, simdjson::dom::parser& parser,
                              simdjson::dom::element& doc) {
  auto err = parser.parse(json.data(), json.size()).get(doc);
  return err ? simdjson::error_message(err) : nullptr;
}

// A JSON number (or bool, as 0/1) read as a double.
inline std::optional<double> json_number(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::INT64:
      return static_cast<double>(int64_t(e));
    case simdjson::dom::element_type::UINT64:
      return static_cast<double>(uint64_t(e));
    case simdjson::dom::element_type::DOUBLE:
      return double(e);
    case simdjson::dom::element_type::BOOL:
      return bool(e) ? 1.0 : 0.0;
    default:
      return std::nullopt;
  }
}

}  // namespace tlscope::views
