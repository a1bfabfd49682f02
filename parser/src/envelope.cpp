// Envelope reading. Keys are compared raw (event keys never need unescaping); every value that is
// not a context field is skipped by On-Demand without being materialised.
#include "envelope.hpp"

#include <cstring>

namespace tlscope::parser {
namespace {

namespace od = simdjson::ondemand;

std::string_view trim_right(std::string_view s) {
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// The raw key text between the quotes (escapes left as written).
std::string_view raw_key(const od::raw_json_string& key, const char* end) {
  const char* begin = reinterpret_cast<const char*>(key.raw());
  const char* p = begin;
  while (p < end && *p != '"') p += (*p == '\\') ? 2 : 1;
  return std::string_view(begin, static_cast<size_t>((p < end ? p : end) - begin));
}

// JSON text of any value: objects and arrays whole, scalars as their token.
simdjson::error_code raw_value(od::value& v, std::string_view& out) {
  od::json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type == od::json_type::object) {
    od::object obj;
    if (auto err = v.get_object().get(obj)) return err;
    return obj.raw_json().get(out);
  }
  if (type == od::json_type::array) {
    od::array arr;
    if (auto err = v.get_array().get(arr)) return err;
    return arr.raw_json().get(out);
  }
  out = trim_right(v.raw_json_token());
  return simdjson::SUCCESS;
}

enum class Field : uint8_t {
  kEvent,
  kRank,
  kAutograd,
  kFrame,
  kFrameCompile,
  kAttempt,
  kPayload,
  kStack,
  kSubgraph
};

Field classify(std::string_view key) {
  switch (key.size()) {
    case 4:
      if (key == "rank") return Field::kRank;
      break;
    case 5:
      if (key == "stack") return Field::kStack;
      break;
    case 7:
      if (key == "attempt") return Field::kAttempt;
      break;
    case 8:
      if (key == "frame_id") return Field::kFrame;
      break;
    case 11:
      if (key == "has_payload") return Field::kPayload;
      break;
    case 13:
      if (key == "subgraph_name") return Field::kSubgraph;
      break;
    case 16:
      if (key == "frame_compile_id") return Field::kFrameCompile;
      break;
    case 20:
      if (key == "compiled_autograd_id") return Field::kAutograd;
      break;
    default:
      break;
  }
  return Field::kEvent;
}

// An integer id; JSON null leaves it absent.
simdjson::error_code read_id(od::value& v, std::optional<int64_t>& out) {
  bool null = false;
  if (auto err = v.is_null().get(null)) return err;
  if (null) return simdjson::SUCCESS;
  int64_t n;
  if (auto err = v.get_int64().get(n)) return err;
  out = n;
  return simdjson::SUCCESS;
}

}  // namespace

std::string_view EnvelopeReader::to_source(std::string_view in_padded) const {
  return source_.substr(static_cast<size_t>(in_padded.data() - padded_.data()), in_padded.size());
}

EnvelopeStatus EnvelopeReader::read(std::string_view json, EnvelopeFields& out, std::string& why) {
  out = EnvelopeFields{};
  source_ = json;
  size_t need = json.size() + simdjson::SIMDJSON_PADDING;
  if (padded_.size() < need) padded_.resize(need);
  std::memcpy(padded_.data(), json.data(), json.size());
  const char* end = padded_.data() + json.size();

  auto fail = [&](simdjson::error_code err, const char* what) {
    why = std::string(what) + ": " + simdjson::error_message(err);
    return err == simdjson::UTF8_ERROR ? EnvelopeStatus::kInvalidUtf8 : EnvelopeStatus::kBadJson;
  };

  od::document doc;
  if (auto err = parser_.iterate(padded_.data(), json.size(), padded_.size()).get(doc)) {
    return fail(err, "envelope is not valid JSON");
  }
  od::object obj;
  if (auto err = doc.get_object().get(obj)) return fail(err, "envelope is not a JSON object");

  for (auto field_result : obj) {
    od::field field;
    if (auto err = std::move(field_result).get(field))
      return fail(err, "envelope is not valid JSON");
    std::string_view key = raw_key(field.key(), end);
    od::value value = field.value();
    simdjson::error_code err = simdjson::SUCCESS;
    switch (classify(key)) {
      case Field::kEvent:
        // The first non-context key names the event; later ones are not event keys PyTorch
        // writes, and are left in `envelope` for whoever wants them.
        if (out.kind.empty()) {
          std::string_view meta;
          err = raw_value(value, meta);
          if (!err) {
            out.kind = to_source(key);
            out.metadata = to_source(meta);
          }
        }
        break;
      case Field::kRank:
        err = read_id(value, out.rank);
        break;
      case Field::kAutograd:
        err = read_id(value, out.context.compiled_autograd_id);
        break;
      case Field::kFrame:
        err = read_id(value, out.context.frame_id);
        break;
      case Field::kFrameCompile:
        err = read_id(value, out.context.frame_compile_id);
        break;
      case Field::kAttempt:
        err = read_id(value, out.context.attempt);
        break;
      case Field::kPayload: {
        bool null = false;
        if ((err = value.is_null().get(null)) || null) break;
        std::string_view md5 = trim_right(value.raw_json_token());
        // The hex digest as written; a non-string value stays as its token and cannot match.
        if (md5.size() >= 2 && md5.front() == '"' && md5.back() == '"')
          md5 = md5.substr(1, md5.size() - 2);
        out.has_payload = true;
        out.payload_md5 = to_source(md5);
        break;
      }
      case Field::kSubgraph: {
        // PyTorch 2.8+ names the subgraph (an invoke_subgraph body, a partitioned backward) a
        // record belongs to. Kept as written between the quotes: the names are identifiers.
        bool null = false;
        if ((err = value.is_null().get(null)) || null) break;
        std::string_view name = trim_right(value.raw_json_token());
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
          name = name.substr(1, name.size() - 2);
        out.subgraph_name = to_source(name);
        break;
      }
      case Field::kStack: {
        std::string_view stack;
        err = raw_value(value, stack);
        if (!err) out.stack = to_source(stack);
        break;
      }
    }
    if (err) {
      why = "envelope field \"" + std::string(key) + "\": " + simdjson::error_message(err);
      return err == simdjson::UTF8_ERROR ? EnvelopeStatus::kInvalidUtf8 : EnvelopeStatus::kBadJson;
    }
  }
  // Anything after the closing brace means the line is not one JSON object.
  const char* rest = nullptr;
  if (doc.current_location().get(rest) == simdjson::SUCCESS && rest < end) {
    why = "envelope has text after the JSON object";
    return EnvelopeStatus::kBadJson;
  }
  if (out.kind.empty()) {
    why = "envelope has no event key";
    return EnvelopeStatus::kBadJson;
  }
  return EnvelopeStatus::kOk;
}

}  // namespace tlscope::parser
