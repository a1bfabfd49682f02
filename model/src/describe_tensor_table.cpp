// describe_tensor rows: a tensor's metadata as the compiler saw it (sizes, strides, flags).
#include <array>

#include "typed_table.hpp"

namespace tlscope::model {
namespace {

using enum FieldType;

constexpr std::array<FieldSpec, 13> kFields{{
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
constexpr size_t kFirstDefaulted = 7;
constexpr size_t kStorage = 8;

class DescribeTensorTable final : public TypedTable {
 public:
  explicit DescribeTensorTable(Connection& db)
      : insert_(
            db.prepare("INSERT INTO describe_tensor VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {
  }

  bool add(const EventRow& row, JsonFields& json, std::string& error) override {
    if (!json.parse(row.event.metadata, kFields, values_, error)) return false;
    int i = 1;
    insert_.bind_int(i++, row.event_id);
    insert_.bind_int(i++, row.file_id);
    insert_.bind_opt_int(i++, row.rank);
    insert_.bind_opt_text(i++, nonempty(row.compile_id));
    for (size_t f = 0; f < kFields.size(); ++f) {
      FieldValue v = values_[f];
      if (f >= kFirstDefaulted && f != kStorage && !v.present()) {
        v.kind = FieldValue::Kind::kInt;
        v.i = 0;
      }
      bind_field(insert_, i++, v);
    }
    insert_.bind_text(i++, row.event.metadata);
    insert_.run();
    return true;
  }

 private:
  Statement insert_;
  std::vector<FieldValue> values_;
};

}  // namespace

std::unique_ptr<TypedTable> make_describe_tensor_table(Connection& db) {
  return std::make_unique<DescribeTensorTable>(db);
}

}  // namespace tlscope::model
