// A JSON number (or bool, as 0/1) read as a double: how logged and typed tensor values are read.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>

namespace tlscope::views {

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
