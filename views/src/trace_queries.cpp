// Read queries for the front ends. Each returns plain rows; no drawing decisions here.
#include "tlscope/views/trace_queries.hpp"

#include <simdjson.h>

namespace tlscope::views {

Result<std::vector<int64_t>> shape_from_size_json(const std::string& json) {
  Result<std::vector<int64_t>> out;
  simdjson::dom::parser parser;
  simdjson::dom::array arr;
  if (parser.parse(simdjson::padded_string(json)).get(arr)) {
    out.fail("size is not a JSON array");
    return out;
  }
  for (simdjson::dom::element e : arr) {
    int64_t v = 0;
    if (e.get(v) || v < 0) {
      std::string_view sym;
      out.value.clear();
      out.fail(e.get(sym) ? "size holds a non-integer" : "symbolic size " + std::string(sym));
      return out;
    }
    out.value.push_back(v);
  }
  return out;
}

Result<std::vector<TensorRow>> load_tensors(const Database& db) {
  Result<std::vector<TensorRow>> out;
  std::vector<TensorRow>& rows = out.value;
  if (!db.has_table("describe_tensor")) return out;
  db.prepare(
        "SELECT event_id, rank, compile_id, tensor_id, dtype, device, size, stride "
        "FROM describe_tensor ORDER BY event_id")
      .for_each(
          [&](const Statement& st) {
            TensorRow r;
            r.event_id = st.int64(0);
            r.rank = st.int64_or(1, -1);
            r.compile_id = st.text(2);
            r.tensor_id = st.int64_or(3, -1);
            r.dtype = st.text(4);
            r.device = st.text(5);
            r.size_json = st.text(6);
            r.stride_json = st.text(7);
            Result<std::vector<int64_t>> shape = shape_from_size_json(r.size_json);
            if (shape.ok())
              r.shape = std::move(shape.value);
            else
              r.shape_error = std::move(shape.error);
            rows.push_back(std::move(r));
          },
          out);
  return out;
}

}  // namespace tlscope::views
