// The typed tables that are a row of metadata fields each: describe_tensor, describe_storage,
// describe_source, artifacts and links. One table is described by its name, the fields it reads
// off the event's metadata (columns in the same order) and what surrounds them; one class writes
// them all. compilation_metrics has its own file: its compile id comes from the record.
#include <array>
#include <span>
#include <string>

#include "typed_table.hpp"

namespace tlscope::model {
namespace {

using enum FieldType;

// What follows the leading columns (event_id, file_id) and precedes / follows the fields.
struct FieldTableSpec {
  const char* table;
  std::span<const FieldSpec> fields;
  bool context = true;            // rank, compile_id after event_id, file_id
  bool payload_id = false;        // payload_id after the fields
  bool metadata_json = false;     // the whole metadata (`json`) after the fields
  void (*fill_defaults)(std::vector<FieldValue>&) = nullptr;  // absent fields PyTorch omits
};

std::string insert_sql(const FieldTableSpec& spec) {
  size_t columns = 2 + (spec.context ? 2 : 0) + spec.fields.size() + (spec.payload_id ? 1 : 0) +
                   (spec.metadata_json ? 1 : 0);
  std::string sql = std::string("INSERT INTO ") + spec.table + " VALUES(?";
  for (size_t c = 1; c < columns; ++c) sql += ",?";
  return sql + ")";
}

class FieldTable final : public TypedTable {
 public:
  FieldTable(Connection& db, const FieldTableSpec& spec)
      : spec_(spec), insert_(db.prepare(insert_sql(spec))) {}

  bool add(const EventRow& row, JsonFields& json, std::string& error) override {
    if (!json.parse(row.event.metadata, spec_.fields, values_, error)) return false;
    if (spec_.fill_defaults) spec_.fill_defaults(values_);
    int i = 1;
    insert_.bind(i++, row.event_id);
    insert_.bind(i++, row.file_id);
    if (spec_.context) {
      insert_.bind(i++, row.rank);
      insert_.bind_static(i++, nonempty(row.compile_id));
    }
    for (const FieldValue& v : values_) bind_field(insert_, i++, v);
    if (spec_.payload_id) insert_.bind(i++, row.payload_id);
    if (spec_.metadata_json) insert_.bind_static(i++, row.event.metadata);
    insert_.run();
    return true;
  }

 private:
  const FieldTableSpec& spec_;
  Statement insert_;
  std::vector<FieldValue> values_;
};

// describe_tensor: a tensor's metadata as the compiler saw it (sizes, strides, flags).
constexpr std::array<FieldSpec, 13> kTensorFields{{
    {"describer_id", kInt},
    {"id", kInt},
    {"ndim", kInt},
    {"dtype", kText},
    {"device", kText},
    {"size", kJson},
    {"stride", kJson},
    {"storage_offset", kInt},
    {"storage", kInt},
    {"requires_grad", kInt},
    {"is_leaf", kInt},
    {"is_view", kInt},
    {"is_parameter", kInt},
}};

// PyTorch omits storage_offset and the flags when they hold their default (0 / false); an absent
// storage has no default (the tensor has none).
void tensor_defaults(std::vector<FieldValue>& values) {
  constexpr size_t kFirstDefaulted = 7, kStorage = 8;
  for (size_t f = kFirstDefaulted; f < values.size(); ++f) {
    if (f == kStorage || values[f].present()) continue;
    values[f].kind = FieldValue::Kind::kInt;
    values[f].i = 0;
  }
}

// describe_storage: storage id and size in bytes, joined to describe_tensor.storage_id.
constexpr std::array<FieldSpec, 3> kStorageFields{{
    {"describer_id", kInt},
    {"id", kInt},
    {"size", kInt},
}};

// describe_source: the Python source expression (L['x']) of a described tensor.
constexpr std::array<FieldSpec, 3> kSourceFields{{
    {"describer_id", kInt},
    {"id", kInt},
    {"source", kText},
}};

// artifacts: name and declared encoding of each artifact, linked to its stored payload.
constexpr std::array<FieldSpec, 2> kArtifactFields{{
    {"name", kText},
    {"encoding", kText},
}};

// links: named URLs (e.g. manifold_url) a compile points at.
constexpr std::array<FieldSpec, 2> kLinkFields{{
    {"name", kText},
    {"url", kText},
}};

const FieldTableSpec kDescribeTensor{.table = "describe_tensor",
                                     .fields = kTensorFields,
                                     .metadata_json = true,
                                     .fill_defaults = tensor_defaults};
const FieldTableSpec kDescribeStorage{.table = "describe_storage", .fields = kStorageFields};
const FieldTableSpec kDescribeSource{.table = "describe_source", .fields = kSourceFields};
const FieldTableSpec kArtifact{
    .table = "artifacts", .fields = kArtifactFields, .payload_id = true};
const FieldTableSpec kLink{.table = "links", .fields = kLinkFields, .context = false};

}  // namespace

std::unique_ptr<TypedTable> make_describe_tensor_table(Connection& db) {
  return std::make_unique<FieldTable>(db, kDescribeTensor);
}
std::unique_ptr<TypedTable> make_describe_storage_table(Connection& db) {
  return std::make_unique<FieldTable>(db, kDescribeStorage);
}
std::unique_ptr<TypedTable> make_describe_source_table(Connection& db) {
  return std::make_unique<FieldTable>(db, kDescribeSource);
}
std::unique_ptr<TypedTable> make_artifact_table(Connection& db) {
  return std::make_unique<FieldTable>(db, kArtifact);
}
std::unique_ptr<TypedTable> make_link_table(Connection& db) {
  return std::make_unique<FieldTable>(db, kLink);
}

}  // namespace tlscope::model
