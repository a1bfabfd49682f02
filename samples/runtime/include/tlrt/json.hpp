// A small ordered JSON value with Python-compatible dumps: the runtime's logs must byte-match what
// json.dumps writes (", " and ": " separators, ensure_ascii, indent=0 for chromium payloads).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tlrt {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() : v_(nullptr) {}
  Json(std::nullptr_t) : v_(nullptr) {}
  Json(bool b) : v_(b) {}
  Json(int i) : v_(static_cast<int64_t>(i)) {}
  Json(int64_t i) : v_(i) {}
  Json(uint64_t i) : v_(static_cast<int64_t>(i)) {}
  Json(double d) : v_(d) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(Array a) : v_(std::move(a)) {}
  Json(Object o) : v_(std::move(o)) {}

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }
  template <typename T>
  static Json list(const std::vector<T>& xs) {
    Array a;
    a.reserve(xs.size());
    for (const auto& x : xs) a.emplace_back(x);
    return Json(std::move(a));
  }

  // Object: appends (keeps insertion order, as Python dicts do). Returns *this for chaining.
  Json& set(std::string key, Json value);
  // Array: appends.
  Json& push(Json value);

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(v_); }
  const Array* as_array() const { return std::get_if<Array>(&v_); }
  const Object* as_object() const { return std::get_if<Object>(&v_); }

  // json.dumps(obj): one line.
  std::string dump() const;
  // json.dumps(obj, indent=0): every item on its own line, no indentation.
  std::string dump_indent0() const;

 private:
  void write(std::string& out, bool indent0) const;
  std::variant<std::nullptr_t, bool, int64_t, double, std::string, Array, Object> v_;
};

// JSON string literal with Python's ensure_ascii escaping.
void append_json_string(std::string& out, const std::string& s);
// Python repr of a float (shortest round trip, ".0" for integral values).
std::string python_float(double d);

}  // namespace tlrt
