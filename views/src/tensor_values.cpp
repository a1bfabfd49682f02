// JSON tensor values through simdjson's DOM: inputs are small (what a person types or exports),
// and the DOM lets a ragged array be reported with the depth and index where it breaks.
#include "tlscope/views/tensor_values.hpp"

#include <simdjson.h>

#include "json_read.hpp"

namespace tlscope::views {
namespace {

// Walks a nested array; the first array seen at each depth fixes that dim's size.
bool flatten(simdjson::dom::element e, size_t depth, TensorValues& out, bool& shape_fixed,
             std::string& why) {
  if (e.type() == simdjson::dom::element_type::ARRAY) {
    simdjson::dom::array arr = e.get_array().value_unsafe();
    int64_t n = static_cast<int64_t>(arr.size());
    if (!shape_fixed && depth == out.shape.size()) {
      out.shape.push_back(n);
    } else if (depth >= out.shape.size() || out.shape[depth] != n) {
      why =
          "ragged array: " + std::to_string(n) + " items at depth " + std::to_string(depth) +
          " where " +
          (depth < out.shape.size() ? std::to_string(out.shape[depth]) : std::string("a number")) +
          " was expected";
      return false;
    }
    for (simdjson::dom::element item : arr) {
      if (!flatten(item, depth + 1, out, shape_fixed, why)) return false;
    }
    if (n == 0) shape_fixed = true;
    return true;
  }
  auto v = json_number(e);
  if (!v) {
    why = "non-numeric item at depth " + std::to_string(depth);
    return false;
  }
  if (!shape_fixed) shape_fixed = true;
  if (depth != out.shape.size()) {
    why = "ragged array: a number at depth " + std::to_string(depth) + " where an array of " +
          std::to_string(depth < out.shape.size() ? out.shape[depth] : 0) + " was expected";
    return false;
  }
  out.values.push_back(*v);
  return true;
}

}  // namespace

Result<TensorValues> parse_tensor_values_json(std::string_view json, const std::string& source) {
  auto fail = [&](const std::string& why) {
    Result<TensorValues> failed;
    failed.fail(source + ": " + why);
    return failed;
  };
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (const char* why = parse_json(json, parser, doc)) return fail(why);
  TensorValues out;
  bool fixed = false;
  std::string why;
  if (doc.type() == simdjson::dom::element_type::OBJECT) {
    simdjson::dom::element values, shape;
    if (doc["values"].get(values)) return fail("object without a \"values\" array");
    if (!flatten(values, 0, out, fixed, why)) return fail("values: " + why);
    if (!doc["shape"].get(shape)) {
      std::vector<int64_t> declared;
      simdjson::dom::array arr;
      if (shape.get(arr)) return fail("\"shape\" is not an array");
      int64_t numel = 1;
      for (simdjson::dom::element s : arr) {
        int64_t d = 0;
        if (s.get(d) || d < 0) return fail("\"shape\" holds a non-integer or negative size");
        declared.push_back(d);
        numel *= d;
      }
      if (numel != static_cast<int64_t>(out.values.size())) {
        return fail("\"shape\" has " + std::to_string(numel) + " elements but " +
                    std::to_string(out.values.size()) + " values were given");
      }
      out.shape = declared;
    }
    return {std::move(out), ""};
  }
  if (!flatten(doc, 0, out, fixed, why)) return fail(why);
  return {std::move(out), ""};
}

}  // namespace tlscope::views
