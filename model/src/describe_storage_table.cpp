// describe_storage rows: storage id and size in bytes, joined to describe_tensor.storage_id.
#include <array>

#include "typed_table.hpp"

namespace tlscope::model {
namespace {

constexpr std::array<FieldSpec, 3> kFields{{
    {"describer_id", FieldType::kInt},
    {"id", FieldType::kInt},
    {"size", FieldType::kInt},
}};

class DescribeStorageTable final : public TypedTable {
 public:
  explicit DescribeStorageTable(Connection& db)
      : insert_(db.prepare("INSERT INTO describe_storage VALUES(?,?,?,?,?,?,?)")) {}

  bool add(const EventRow& row, JsonFields& json, std::string& error) override {
    if (!json.parse(row.event.metadata, kFields, values_, error)) return false;
    int i = 1;
    insert_.bind_int(i++, row.event_id);
    insert_.bind_int(i++, row.file_id);
    insert_.bind_opt_int(i++, row.rank);
    insert_.bind_opt_text(i++, nonempty(row.compile_id));
    for (const FieldValue& v : values_) bind_field(insert_, i++, v);
    insert_.run();
    return true;
  }

 private:
  Statement insert_;
  std::vector<FieldValue> values_;
};

}  // namespace

std::unique_ptr<TypedTable> make_describe_storage_table(Connection& db) {
  return std::make_unique<DescribeStorageTable>(db);
}

}  // namespace tlscope::model
