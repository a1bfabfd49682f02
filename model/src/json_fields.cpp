// On-Demand field extraction for the typed tables.
#include "json_fields.hpp"

namespace tlscope::model {
namespace {

namespace od = simdjson::ondemand;

// The JSON text of any value: containers via raw_json(), scalars via their token.
simdjson::error_code raw_text(od::value& v, std::string_view& out) {
  od::json_type t;
  if (auto err = v.type().get(t)) return err;
  if (t == od::json_type::array) {
    od::array a;
    if (auto err = v.get_array().get(a)) return err;
    return a.raw_json().get(out);
  }
  if (t == od::json_type::object) {
    od::object o;
    if (auto err = v.get_object().get(o)) return err;
    return o.raw_json().get(out);
  }
  out = v.raw_json_token();
  while (!out.empty() && (out.back() == ' ' || out.back() == '\n' || out.back() == '\t' ||
                          out.back() == '\r' || out.back() == ',')) {
    out.remove_suffix(1);
  }
  return simdjson::SUCCESS;
}

simdjson::error_code read_value(od::value& v, FieldType type, FieldValue& out) {
  od::json_type t;
  if (auto err = v.type().get(t)) return err;
  if (t == od::json_type::null) {
    out.kind = FieldValue::Kind::kNull;
    return simdjson::SUCCESS;
  }
  switch (type) {
    case FieldType::kInt:
    case FieldType::kReal: {
      if (t == od::json_type::boolean) {
        bool b = false;
        if (auto err = v.get_bool().get(b)) return err;
        out.kind = FieldValue::Kind::kInt;
        out.i = b ? 1 : 0;
        return simdjson::SUCCESS;
      }
      if (t != od::json_type::number) break;  // a string where a number was expected: kept as text
      od::number_type nt;
      if (auto err = v.get_number_type().get(nt)) return err;
      if (nt == od::number_type::signed_integer) {
        if (auto err = v.get_int64().get(out.i)) return err;
        out.kind = FieldValue::Kind::kInt;
        if (type == FieldType::kReal) {
          out.d = static_cast<double>(out.i);
          out.kind = FieldValue::Kind::kReal;
        }
        return simdjson::SUCCESS;
      }
      if (auto err = v.get_double().get(out.d)) return err;
      out.kind = FieldValue::Kind::kReal;
      // Only a double inside int64's range converts (8.9e74 cast to int64 is undefined behaviour).
      if (type == FieldType::kInt && out.d >= -0x1p63 && out.d < 0x1p63 &&
          out.d == static_cast<double>(static_cast<int64_t>(out.d))) {
        out.i = static_cast<int64_t>(out.d);
        out.kind = FieldValue::Kind::kInt;
      }
      return simdjson::SUCCESS;
    }
    case FieldType::kText:
      if (t == od::json_type::string) {
        out.kind = FieldValue::Kind::kText;
        return v.get_string().get(out.text);
      }
      break;
    case FieldType::kJson:
      break;
  }
  out.kind = FieldValue::Kind::kText;
  return raw_text(v, out.text);
}

}  // namespace

int field_index(std::span<const FieldSpec> specs, std::string_view key) {
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].key == key) return static_cast<int>(i);
  }
  return -1;
}

template <typename OnField>
bool JsonFields::walk(std::string_view json, std::span<const FieldSpec> specs, std::string& error,
                      OnField on_field) {
  // simdjson reads up to SIMDJSON_PADDING bytes past the end: parse from a reused padded copy.
  padded_.assign(json);
  padded_.resize(json.size() + simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  auto fail = [&](simdjson::error_code err) {
    error = simdjson::error_message(err);
    return false;
  };
  if (auto err = parser_.iterate(padded_.data(), json.size(), padded_.size()).get(doc)) {
    return fail(err);
  }
  od::object obj;
  if (auto err = doc.get_object().get(obj)) return fail(err);
  for (auto field : obj) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return fail(err);
    int idx = field_index(specs, key);
    if (idx < 0) continue;  // unread fields are skipped by the iterator
    od::value v;
    if (auto err = field.value().get(v)) return fail(err);
    if (auto err = on_field(static_cast<size_t>(idx), v)) return fail(err);
  }
  return true;
}

bool JsonFields::parse(std::string_view json, std::span<const FieldSpec> specs,
                       std::vector<FieldValue>& out, std::string& error) {
  out.assign(specs.size(), FieldValue{});
  return walk(json, specs, error,
              [&](size_t idx, od::value& v) { return read_value(v, specs[idx].type, out[idx]); });
}

bool JsonFields::parse_nested(std::string_view json, std::span<const FieldSpec> specs,
                              size_t nested_field, std::span<const FieldSpec> nested,
                              std::vector<FieldValue>& out, std::vector<FieldValue>& nested_out,
                              std::string& error) {
  out.assign(specs.size(), FieldValue{});
  nested_out.assign(nested.size(), FieldValue{});
  return walk(json, specs, error, [&](size_t idx, od::value& v) -> simdjson::error_code {
    if (idx != nested_field) return read_value(v, specs[idx].type, out[idx]);
    nested_out.assign(nested.size(), FieldValue{});  // a repeated key: the last one counts
    od::json_type t;
    if (auto err = v.type().get(t)) return err;
    if (t != od::json_type::object) {
      std::string_view skipped;
      return raw_text(v, skipped);  // consumed as parse() consumes it
    }
    od::object o;
    if (auto err = v.get_object().get(o)) return err;
    for (auto field : o) {
      std::string_view key;
      if (auto err = field.unescaped_key().get(key)) return err;
      int n = field_index(nested, key);
      if (n < 0) continue;
      od::value inner;
      if (auto err = field.value().get(inner)) return err;
      if (auto err = read_value(inner, nested[n].type, nested_out[n])) return err;
    }
    return simdjson::SUCCESS;
  });
}

void bind_field(Statement& stmt, int index, const FieldValue& v) {
  switch (v.kind) {
    case FieldValue::Kind::kNull:
      stmt.bind_null(index);
      break;
    case FieldValue::Kind::kInt:
      stmt.bind(index, v.i);
      break;
    case FieldValue::Kind::kReal:
      stmt.bind(index, v.d);
      break;
    case FieldValue::Kind::kText:
      stmt.bind_static(index, v.text);
      break;
  }
}

}  // namespace tlscope::model
