// chromium_events rows from chromium_event payloads (see chromium_pairing.hpp).
#include "chromium_pairing.hpp"

#include <algorithm>
#include <array>

namespace tlscope::model {
namespace {

constexpr std::array<FieldSpec, ChromiumRow::kFieldCount> kFields{{
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

static_assert(static_cast<int>(FieldValue::Kind::kText) ==
              static_cast<int>(ChromiumValue::Kind::kText));

ChromiumPairing::ChromiumPairing()
    : memory_(":memory:"), patch_(memory_.prepare("SELECT json_patch(?1, ?2)")) {}

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
  if (event.payload.empty()) {
    error = "chromium_event without a payload";
  } else if (!json_.parse(event.payload, kFields, values_, error)) {
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
  row.chromium_ordinal = next_ordinal_++;  // ids follow the log even when a B row waits for its E
  for (size_t f = 0; f < kFields.size(); ++f) row.fields[f] = owned(values_[f]);
  // The args' compile id ("0/0", or "None" outside a compile) wins over the envelope's.
  row.compile_id = std::string(compile_id);
  if (values_[ChromiumRow::kArgs].kind == FieldValue::Kind::kText) {
    std::string ignored;
    if (args_json_.parse(values_[ChromiumRow::kArgs].text, kArgFields, arg_values_, ignored) &&
        arg_values_[0].kind == FieldValue::Kind::kText) {
      row.compile_id = arg_values_[0].text == "None" ? "" : std::string(arg_values_[0].text);
    }
  }

  // A B row is held back until its E arrives, then written once with its duration and merged
  // args: cheaper than updating it in place, which grows the row after its page filled up.
  const ChromiumValue& ph = row.fields[ChromiumRow::kPh];
  bool timed = ph.kind == ChromiumValue::Kind::kText &&
               row.fields[ChromiumRow::kTs].kind == ChromiumValue::Kind::kReal;
  if (!timed || (!is_text(ph, "B") && !is_text(ph, "E"))) {
    out.push_back(std::move(row));
    return;
  }
  Key key{row.fields[ChromiumRow::kPid].i, row.fields[ChromiumRow::kTid].i,
          row.fields[ChromiumRow::kName].text};
  if (is_text(ph, "B")) {
    open_[std::move(key)].push_back(std::move(row));
    return;
  }
  auto it = open_.find(key);
  if (it != open_.end() && !it->second.empty()) {
    ChromiumRow b = std::move(it->second.back());
    it->second.pop_back();
    b.matched_dur = row.fields[ChromiumRow::kTs].d - b.fields[ChromiumRow::kTs].d;
    merge_args(b, row);
    out.push_back(std::move(b));
  }
  out.push_back(std::move(row));
}

void ChromiumPairing::merge_args(ChromiumRow& b, const ChromiumRow& e) {
  ChromiumValue& target = b.fields[ChromiumRow::kArgs];
  const ChromiumValue& patch = e.fields[ChromiumRow::kArgs];
  if (patch.kind == ChromiumValue::Kind::kNull) return;
  if (target.kind == ChromiumValue::Kind::kNull) {
    target = patch;
    return;
  }
  // Both are JSON text (args are read as kJson). json_patch fails only on text that simdjson's
  // skipping iterator let through without validating; the B row then keeps its own args and
  // says so.
  patch_.bind_text(1, target.text);
  patch_.bind_text(2, patch.text);
  try {
    if (patch_.step() && !patch_.column_is_null(0)) target.text = patch_.column_text(0);
    patch_.reset();
  } catch (const SqliteError& err) {
    patch_.reset();
    b.problem = std::string("its args lack those of its E event (line ") + std::to_string(e.line) +
                "), which could not be merged: " + err.what();
    b.excerpt = patch.text.substr(0, 200);
  }
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
