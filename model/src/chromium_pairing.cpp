// chromium_events rows from chromium_event payloads (see chromium_pairing.hpp).
#include "chromium_pairing.hpp"

#include <algorithm>
#include <array>

namespace tlscope::model {
namespace {

// The stored columns, then args (read only for their compile_id).
constexpr size_t kArgs = ChromiumRow::kFieldCount;
constexpr std::array<FieldSpec, kArgs + 1> kChromiumFields{{
    {"name", FieldType::kText},
    {"cat", FieldType::kText},
    {"ph", FieldType::kText},
    {"ts", FieldType::kReal},
    {"dur", FieldType::kReal},  // only on complete ('X') events
    {"pid", FieldType::kInt},
    {"tid", FieldType::kInt},
    {"args", FieldType::kJson},
}};

constexpr std::array<FieldSpec, 1> kArgFields{{{"compile_id", FieldType::kText}}};

ChromiumValue owned(const FieldValue& v) {
  ChromiumValue out;
  out.kind = static_cast<ChromiumValue::Kind>(v.kind);
  out.i = v.i;
  out.d = v.d;
  out.text = std::string(v.text);
  return out;
}

bool is_text(const ChromiumValue& v, std::string_view s) {
  return v.kind == ChromiumValue::Kind::kText && v.text == s;
}

}  // namespace

// ChromiumValue and FieldValue kinds convert by value, both ways (owned() here, bind_value in
// event_writer.cpp).
static_assert(
    static_cast<int>(FieldValue::Kind::kNull) == static_cast<int>(ChromiumValue::Kind::kNull) &&
    static_cast<int>(FieldValue::Kind::kInt) == static_cast<int>(ChromiumValue::Kind::kInt) &&
    static_cast<int>(FieldValue::Kind::kReal) == static_cast<int>(ChromiumValue::Kind::kReal) &&
    static_cast<int>(FieldValue::Kind::kText) == static_cast<int>(ChromiumValue::Kind::kText));

void ChromiumPairing::begin_file() {
  open_.clear();
  next_ordinal_ = 0;
}

void ChromiumPairing::add(const parser::Event& event, uint64_t event_ordinal,
                          std::optional<int64_t> rank, std::string_view compile_id,
                          std::vector<ChromiumRow>& out) {
  ChromiumRow row;
  row.event_ordinal = event_ordinal;
  row.rank = rank;
  row.line = event.line;
  row.byte_offset = event.byte_offset;
  std::string error;
  // The args' compile_id is read in the same walk as the fields; only when that walk fails are
  // the payload and then its args text parsed on their own, as they always were before (the
  // same values when both succeed; a problem only where the two-parse path finds one).
  bool args_read = false;
  if (event.payload.empty()) {
    error = "chromium_event without a payload";
  } else if (json_.parse_nested(event.payload, kChromiumFields, kArgs, kArgFields, values_,
                                arg_values_, error)) {
    args_read = true;
  } else if (error.clear(); !json_.parse(event.payload, kChromiumFields, values_, error)) {
    error = "chromium_event payload is not a JSON object: " + error;
  }
  if (!error.empty()) {
    row.has_row = false;
    row.problem = std::move(error);
    std::string_view excerpt = event.payload.empty() ? event.metadata : event.payload;
    row.excerpt = std::string(excerpt.substr(0, 200));
    out.push_back(std::move(row));
    return;
  }
  for (size_t f = 0; f < ChromiumRow::kFieldCount; ++f) row.fields[f] = owned(values_[f]);
  // The args' compile id ("0/0", or "None" outside a compile) wins over the envelope's.
  row.compile_id = std::string(compile_id);
  if (!args_read && values_[kArgs].kind == FieldValue::Kind::kText) {
    std::string ignored;
    args_read = args_json_.parse(values_[kArgs].text, kArgFields, arg_values_, ignored);
  }
  if (args_read && arg_values_[0].kind == FieldValue::Kind::kText) {
    row.compile_id = arg_values_[0].text == "None" ? "" : std::string(arg_values_[0].text);
  }

  // A B row is held back until its E arrives, then written once with its duration and the E's
  // event id: cheaper than updating it in place.
  const ChromiumValue& ph = row.fields[ChromiumRow::kPh];
  bool timed = ph.kind == ChromiumValue::Kind::kText &&
               row.fields[ChromiumRow::kTs].kind == ChromiumValue::Kind::kReal;
  // Ordinals are given as rows are kept, so ids follow the log even when a B row waits for its E.
  if (!timed || (!is_text(ph, "B") && !is_text(ph, "E"))) {
    row.chromium_ordinal = next_ordinal_++;
    out.push_back(std::move(row));
    return;
  }
  Key key{row.fields[ChromiumRow::kPid].i, row.fields[ChromiumRow::kTid].i,
          row.fields[ChromiumRow::kName].text};
  if (is_text(ph, "B")) {
    row.chromium_ordinal = next_ordinal_++;
    open_[std::move(key)].push_back(std::move(row));
    return;
  }
  auto it = open_.find(key);
  if (it != open_.end() && !it->second.empty()) {
    ChromiumRow b = std::move(it->second.back());
    it->second.pop_back();
    b.matched_dur = row.fields[ChromiumRow::kTs].d - b.fields[ChromiumRow::kTs].d;
    b.end_event_ordinal = event_ordinal;
    out.push_back(std::move(b));
    return;  // the E is the B row's end_event_id: one row per slice, as trace viewers show it
  }
  row.chromium_ordinal = next_ordinal_++;
  out.push_back(std::move(row));
}

void ChromiumPairing::end_file(std::vector<ChromiumRow>& out) {
  // Unmatched B rows are written as they are, with dur NULL, in log order.
  std::vector<ChromiumRow> rest;
  for (auto& [key, stack] : open_) {
    for (ChromiumRow& b : stack) rest.push_back(std::move(b));
  }
  open_.clear();
  std::sort(rest.begin(), rest.end(), [](const ChromiumRow& x, const ChromiumRow& y) {
    return x.chromium_ordinal < y.chromium_ordinal;
  });
  for (ChromiumRow& b : rest) out.push_back(std::move(b));
}

}  // namespace tlscope::model
