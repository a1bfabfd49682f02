// links rows: named URLs (e.g. manifold_url) a compile points at.
#include <array>

#include "typed_table.hpp"

namespace tlscope::model {
namespace {

constexpr std::array<FieldSpec, 2> kFields{{
    {"name", FieldType::kText},
    {"url", FieldType::kText},
}};

class LinkTable final : public TypedTable {
 public:
  explicit LinkTable(Connection& db) : insert_(db.prepare("INSERT INTO links VALUES(?,?,?,?)")) {}

  bool add(const EventRow& row, JsonFields& json, std::string& error) override {
    if (!json.parse(row.event.metadata, kFields, values_, error)) return false;
    int i = 1;
    insert_.bind_int(i++, row.event_id);
    insert_.bind_int(i++, row.file_id);
    for (const FieldValue& v : values_) bind_field(insert_, i++, v);
    insert_.run();
    return true;
  }

 private:
  Statement insert_;
  std::vector<FieldValue> values_;
};

}  // namespace

std::unique_ptr<TypedTable> make_link_table(Connection& db) {
  return std::make_unique<LinkTable>(db);
}

}  // namespace tlscope::model
