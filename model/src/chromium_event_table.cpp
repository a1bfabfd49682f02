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

struct OpenSlice {
  int64_t row_id;
  double ts;
};

class ChromiumEventTable final : public TypedTable {
 public:
  explicit ChromiumEventTable(Connection& db)
      : db_(db.handle()),
        insert_(db.prepare(
            "INSERT INTO chromium_events(event_id, file_id, rank, name, cat, ph, ts, dur, pid, "
            "tid, compile_id, args) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)")),
        close_(db.prepare(
            "UPDATE chromium_events SET dur = ?1, args = CASE WHEN ?2 IS NULL THEN args "
            "WHEN args IS NULL THEN ?2 ELSE json_patch(args, ?2) END WHERE id = ?3")) {}

  bool add(const EventRow& row, JsonFields& json, std::string& error) override {
    if (row.event.payload.empty()) {
      error = "chromium_event without a payload";
      return false;
    }
    if (!json.parse(row.event.payload, kFields, values_, error)) {
      error = "chromium_event payload is not a JSON object: " + error;
      return false;
    }
    // The args' compile id ("0/0", or "None" outside a compile) wins over the envelope's.
    std::string compile_id(row.compile_id);
    if (values_[kArgs].kind == FieldValue::Kind::kText) {
      std::string ignored;
      if (args_json_.parse(values_[kArgs].text, kArgFields, arg_values_, ignored) &&
          arg_values_[0].kind == FieldValue::Kind::kText) {
        compile_id = arg_values_[0].text == "None" ? "" : std::string(arg_values_[0].text);
      }
    }
    int i = 1;
    insert_.bind_int(i++, row.event_id);
    insert_.bind_int(i++, row.file_id);
    insert_.bind_opt_int(i++, row.rank);
    for (int f = kName; f <= kTid; ++f) bind_field(insert_, i++, values_[f]);
    insert_.bind_opt_text(i++, nonempty(compile_id));
    bind_field(insert_, i++, values_[kArgs]);
    insert_.run();
    int64_t row_id = sqlite3_last_insert_rowid(db_);
    match(row_id);
    return true;
  }

  void end_file(int64_t) override { open_.clear(); }  // unmatched B rows keep dur NULL

 private:
  using Key = std::tuple<int64_t, int64_t, std::string>;

  void match(int64_t row_id) {
    const FieldValue& ph = values_[kPh];
    if (ph.kind != FieldValue::Kind::kText || ph.text.size() != 1) return;
    if (values_[kTs].kind != FieldValue::Kind::kReal) return;
    Key key{values_[kPid].i, values_[kTid].i, std::string(values_[kName].text)};
    if (ph.text == "B") {
      open_[std::move(key)].push_back({row_id, values_[kTs].d});
    } else if (ph.text == "E") {
      auto it = open_.find(key);
      if (it == open_.end() || it->second.empty()) return;
      OpenSlice slice = it->second.back();
      it->second.pop_back();
      close_.bind_double(1, values_[kTs].d - slice.ts);
      bind_field(close_, 2, values_[kArgs]);
      close_.bind_int(3, slice.row_id);
      close_.run();
    }
  }

  sqlite3* db_;
  Statement insert_;
  Statement close_;
  std::vector<FieldValue> values_;
  JsonFields args_json_;
  std::vector<FieldValue> arg_values_;
  std::map<Key, std::vector<OpenSlice>> open_;
};

}  // namespace

std::unique_ptr<TypedTable> make_chromium_event_table(Connection& db) {
  return std::make_unique<ChromiumEventTable>(db);
}

}  // namespace tlscope::model
