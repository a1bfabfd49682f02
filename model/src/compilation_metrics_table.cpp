// compilation_metrics rows: the main fields of (bwd_)compilation_metrics(_runtime) as columns of
// compilation_metrics_rows (the record itself is events.metadata; the view adds it as `json`).
#include <array>

#include "tlscope/parser/compile_id.hpp"
#include "typed_table.hpp"

namespace tlscope::model {
namespace {

using enum FieldType;

// Columns in table order after the fixed leading ones (event_id .. attempt).
constexpr std::array<FieldSpec, 29> kMetricsFields{{
    {"co_name", kText},
    {"co_filename", kText},
    {"co_firstlineno", kInt},
    {"cache_size", kInt},
    {"accumulated_cache_size", kInt},
    {"guard_count", kInt},
    {"shape_env_guard_count", kInt},
    {"graph_op_count", kInt},
    {"graph_node_count", kInt},
    {"graph_input_count", kInt},
    {"fail_type", kText},
    {"fail_reason", kText},
    {"fail_user_frame_filename", kText},
    {"fail_user_frame_lineno", kInt},
    {"restart_reasons", kJson},
    {"recompile_reason", kText},
    {"num_graph_breaks", kInt},
    {"start_time_us", kInt},
    {"end_time_us", kInt},
    {"duration_us", kInt},
    {"entire_frame_compile_time_s", kReal},
    {"backend_compile_time_s", kReal},
    {"inductor_compile_time_s", kReal},
    {"dynamo_cumulative_compile_time_us", kInt},
    {"aot_autograd_cumulative_compile_time_us", kInt},
    {"inductor_cumulative_compile_time_us", kInt},
    {"is_forward", kInt},
    {"is_runtime", kInt},
    // Not a column of its own: the payload's compile id wins over the envelope's.
    {"compile_id", kText},
}};
constexpr size_t kColumnFields = 28;

class CompilationMetricsTable final : public TypedTable {
 public:
  explicit CompilationMetricsTable(Connection& db)
      : insert_(db.prepare(
            "INSERT INTO compilation_metrics_rows VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
            "?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")) {}

  bool add(const EventRow& row, JsonFields& json, std::string& error) override {
    if (!json.parse(row.event.metadata, kMetricsFields, values_, error)) return false;
    const parser::Event& e = row.event;
    parser::CompileContext ctx = e.context;
    std::string_view compile_id = row.compile_id;
    const FieldValue& payload_id = values_[kColumnFields];
    std::string payload_compile_id;
    if (payload_id.kind == FieldValue::Kind::kText) {
      if (auto parsed = parser::parse_compile_id(payload_id.text)) {
        ctx = *parsed;
        // Runtime metrics carry no attempt; keep the envelope's when the payload omits one.
        if (!ctx.attempt) ctx.attempt = e.context.attempt;
        payload_compile_id = std::string(payload_id.text);
        compile_id = payload_compile_id;
      }
    }
    int i = 1;
    insert_.bind(i++, row.event_id);
    insert_.bind(i++, row.file_id);
    insert_.bind(i++, row.rank);
    insert_.bind_static(i++, e.kind);
    insert_.bind_static(i++, nonempty(compile_id));
    insert_.bind(i++, ctx.frame_id);
    insert_.bind(i++, ctx.frame_compile_id);
    insert_.bind(i++, ctx.attempt);
    for (size_t f = 0; f < kColumnFields; ++f) bind_field(insert_, i++, values_[f]);
    insert_.run();
    return true;
  }

 private:
  Statement insert_;
  std::vector<FieldValue> values_;
};

}  // namespace

std::unique_ptr<TypedTable> make_compilation_metrics_table(Connection& db) {
  return std::make_unique<CompilationMetricsTable>(db);
}

}  // namespace tlscope::model
