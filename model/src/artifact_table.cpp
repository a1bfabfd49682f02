// artifacts rows: name and declared encoding of each artifact, linked to its stored payload.
#include <array>

#include "typed_table.hpp"

namespace tlscope::model {
namespace {

constexpr std::array<FieldSpec, 2> kFields{{
    {"name", FieldType::kText},
    {"encoding", FieldType::kText},
}};

class ArtifactTable final : public TypedTable {
 public:
  explicit ArtifactTable(Connection& db)
      : insert_(db.prepare("INSERT INTO artifacts VALUES(?,?,?,?,?,?,?)")) {}

  bool add(const EventRow& row, JsonFields& json, std::string& error) override {
    if (!json.parse(row.event.metadata, kFields, values_, error)) return false;
    int i = 1;
    insert_.bind_int(i++, row.event_id);
    insert_.bind_int(i++, row.file_id);
    insert_.bind_opt_int(i++, row.rank);
    insert_.bind_opt_text(i++, nonempty(row.compile_id));
    for (const FieldValue& v : values_) bind_field(insert_, i++, v);
    insert_.bind_opt_int(i++, row.payload_id);
    insert_.run();
    return true;
  }

 private:
  Statement insert_;
  std::vector<FieldValue> values_;
};

}  // namespace

std::unique_ptr<TypedTable> make_artifact_table(Connection& db) {
  return std::make_unique<ArtifactTable>(db);
}

}  // namespace tlscope::model
