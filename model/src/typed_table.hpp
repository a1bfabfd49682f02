// The interface of the per-kind tables (compilation_metrics, describe_*, artifacts, links;
// chromium_event_rows come from ChromiumPairing, stacks from StackFrameTable): each reads
// its event's metadata or payload and writes rows.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "json_fields.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/parser/event.hpp"

namespace tlscope::model {

// What the writer already knows about an event when a typed table sees it.
struct EventRow {
  const parser::Event& event;
  int64_t event_id;
  int64_t file_id;
  std::optional<int64_t> rank;  // envelope rank, else the file-name rank
  std::string_view compile_id;  // PyTorch form from the envelope; empty when none
  std::optional<int64_t> payload_id;
};

class TypedTable {
 public:
  virtual ~TypedTable() = default;
  // Writes the rows for one event. Returns false with `error` naming what is wrong when the
  // event's JSON cannot be read; the event row itself is kept either way.
  virtual bool add(const EventRow& row, JsonFields& json, std::string& error) = 0;
};

// Factories: compilation_metrics_table.cpp, the others field_tables.cpp.
std::unique_ptr<TypedTable> make_compilation_metrics_table(Connection& db);
std::unique_ptr<TypedTable> make_describe_tensor_table(Connection& db);
std::unique_ptr<TypedTable> make_describe_storage_table(Connection& db);
std::unique_ptr<TypedTable> make_describe_source_table(Connection& db);
std::unique_ptr<TypedTable> make_artifact_table(Connection& db);
std::unique_ptr<TypedTable> make_link_table(Connection& db);

inline std::optional<std::string_view> nonempty(std::string_view s) {
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace tlscope::model
