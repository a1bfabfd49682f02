// chromium_events rows from chromium_event payloads (one Chrome-trace event each). A B event is
// matched with its E (same file, pid, tid and name, innermost first): the B row gets the
// duration and the E row's args merged in.
#include <array>
#include <map>
#include <tuple>
#include <vector>

#include "typed_table.hpp"

namespace tlscope::model {
namespace {

constexpr std::array<FieldSpec, 8> kFields{{
    {"name", FieldType::kText},
    {"cat", FieldType::kText},
    {"ph", FieldType::kText},
    {"ts", FieldType::kReal},
    {"dur", FieldType::kReal},  // only on complete ('X') events
    {"pid", FieldType::kInt},
    {"tid", FieldType::kInt},
    {"args", FieldType::kJson},
}};
enum { kName, kCat, kPh, kTs, kDur, kPid, kTid, kArgs };

constexpr std::array<FieldSpec, 1> kArgFields{{{"compile_id", FieldType::kText}}};

// A FieldValue that owns its text, for rows held back until their E event arrives.
struct OwnedField {
  FieldValue::Kind kind = FieldValue::Kind::kNull;
  int64_t i = 0;
  double d = 0;
  std::string text;

  static OwnedField of(const FieldValue& v) {
    return OwnedField{v.kind, v.i, v.d, std::string(v.text)};
  }
  void bind(Statement& stmt, int index) const {
    FieldValue v{kind, i, d, text};
    bind_field(stmt, index, v);
  }
};

// One chromium_events row, complete except for what its E event may add.
struct Row {
  int64_t id = 0, event_id = 0, file_id = 0;
  std::optional<int64_t> rank;
  std::array<OwnedField, 8> fields;  // indexed like kFields
  std::string compile_id;
};

class ChromiumEventTable final : public TypedTable {
 public:
  explicit ChromiumEventTable(Connection& db)
      : insert_(db.prepare(
            "INSERT INTO chromium_events(id, event_id, file_id, rank, name, cat, ph, ts, dur, "
            "pid, tid, compile_id, args) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
            "?12, CASE WHEN ?14 IS NULL THEN ?13 WHEN ?13 IS NULL THEN ?14 "
            "ELSE json_patch(?13, ?14) END)")),
        next_id_(
            db.scalar_int("SELECT coalesce(max(id), 0) + 1 FROM chromium_events").value_or(1)) {}

  bool add(const EventRow& event, JsonFields& json, std::string& error) override {
    if (event.event.payload.empty()) {
      error = "chromium_event without a payload";
      return false;
    }
    if (!json.parse(event.event.payload, kFields, values_, error)) {
      error = "chromium_event payload is not a JSON object: " + error;
      return false;
    }
    Row row;
    row.id = next_id_++;  // ids follow the log even when a B row is written after its E
    row.event_id = event.event_id;
    row.file_id = event.file_id;
    row.rank = event.rank;
    for (size_t f = 0; f < kFields.size(); ++f) row.fields[f] = OwnedField::of(values_[f]);
    // The args' compile id ("0/0", or "None" outside a compile) wins over the envelope's.
    row.compile_id = std::string(event.compile_id);
    if (values_[kArgs].kind == FieldValue::Kind::kText) {
      std::string ignored;
      if (args_json_.parse(values_[kArgs].text, kArgFields, arg_values_, ignored) &&
          arg_values_[0].kind == FieldValue::Kind::kText) {
        row.compile_id = arg_values_[0].text == "None" ? "" : std::string(arg_values_[0].text);
      }
    }
    match(std::move(row));
    return true;
  }

  // Unmatched B rows are written as they are, with dur NULL.
  void end_file(int64_t) override {
    for (auto& [key, stack] : open_) {
      for (const Row& b : stack) write(b, nullptr, std::nullopt);
    }
    open_.clear();
  }

 private:
  using Key = std::tuple<int64_t, int64_t, std::string>;

  // A B row is held back until its E arrives, then written once with its duration and merged
  // args: cheaper than updating it in place, which grows the row after its page filled up.
  void match(Row row) {
    const OwnedField& ph = row.fields[kPh];
    bool timed =
        ph.kind == FieldValue::Kind::kText && row.fields[kTs].kind == FieldValue::Kind::kReal;
    if (!timed || (ph.text != "B" && ph.text != "E")) {
      write(row, nullptr, std::nullopt);
      return;
    }
    Key key{row.fields[kPid].i, row.fields[kTid].i, row.fields[kName].text};
    if (ph.text == "B") {
      open_[std::move(key)].push_back(std::move(row));
      return;
    }
    auto it = open_.find(key);
    if (it != open_.end() && !it->second.empty()) {
      Row b = std::move(it->second.back());
      it->second.pop_back();
      write(b, &row.fields[kArgs], row.fields[kTs].d - b.fields[kTs].d);
    }
    write(row, nullptr, std::nullopt);
  }

  void write(const Row& row, const OwnedField* extra_args, std::optional<double> dur) {
    Statement& s = insert_;
    s.bind_int(1, row.id);
    s.bind_int(2, row.event_id);
    s.bind_int(3, row.file_id);
    s.bind_opt_int(4, row.rank);
    row.fields[kName].bind(s, 5);
    row.fields[kCat].bind(s, 6);
    row.fields[kPh].bind(s, 7);
    row.fields[kTs].bind(s, 8);
    dur ? s.bind_double(9, *dur) : row.fields[kDur].bind(s, 9);
    row.fields[kPid].bind(s, 10);
    row.fields[kTid].bind(s, 11);
    s.bind_opt_text(12, nonempty(row.compile_id));
    row.fields[kArgs].bind(s, 13);
    if (extra_args) extra_args->bind(s, 14);
    s.run();
  }

  Statement insert_;
  int64_t next_id_;
  std::vector<FieldValue> values_;
  JsonFields args_json_;
  std::vector<FieldValue> arg_values_;
  std::map<Key, std::vector<Row>> open_;
};

}  // namespace

std::unique_ptr<TypedTable> make_chromium_event_table(Connection& db) {
  return std::make_unique<ChromiumEventTable>(db);
}

}  // namespace tlscope::model
