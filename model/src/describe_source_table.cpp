// describe_source rows: the Python source expression (L['x']) of a described tensor.
#include <array>

#include "typed_table.hpp"

namespace tlscope::model {
namespace {

constexpr std::array<FieldSpec, 3> kFields{{
    {"describer_id", FieldType::kInt},
    {"id", FieldType::kInt},
    {"source", FieldType::kText},
}};

class DescribeSourceTable final : public TypedTable {
 public:
  explicit DescribeSourceTable(Connection& db)
      : insert_(db.prepare("INSERT INTO describe_source VALUES(?,?,?,?,?,?,?)")) {}

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

std::unique_ptr<TypedTable> make_describe_source_table(Connection& db) {
  return std::make_unique<DescribeSourceTable>(db);
}

}  // namespace tlscope::model
