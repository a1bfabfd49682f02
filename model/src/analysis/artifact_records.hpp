// The artifacts of one record family in log order, each with its payload's text: what the readers
// of PyTorch 2.14/2.15's artifacts (PGO profiles, Dynamo cache records, overlap scheduling,
// collective bucketing, SPMD checks) walk one by one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model::analysis {

struct ArtifactRecord {
  int64_t event_id = 0, file_id = 0;
  std::optional<int64_t> rank;  // the file's rank, else the record's
  std::optional<std::string> compile_id;
  std::string name;
  std::string_view payload;  // "" without one; valid until the next record
};

// Calls `each(record)` for every artifact whose name satisfies `name_where` (an SQL condition on
// `a.name`, e.g. "a.name GLOB 'put_*_code_state'"), in event order.
template <typename Each>
void for_each_artifact(sqlite3* db, std::string_view name_where, Each&& each) {
  if (!has_rows(db, "artifacts a WHERE " + std::string(name_where))) return;
  Statement q(db,
              "SELECT a.event_id, a.file_id, COALESCE(f.rank, a.rank), a.compile_id, a.name, "
              "p.text FROM artifacts a JOIN files f ON f.id = a.file_id LEFT JOIN payloads p "
              "ON p.id = a.payload_id WHERE " +
                  std::string(name_where) + " ORDER BY a.event_id");
  while (q.step()) {
    ArtifactRecord r;
    r.event_id = q.int64(0);
    r.file_id = q.int64(1);
    r.rank = q.opt_int64(2);
    r.compile_id = q.opt_text(3);
    r.name = q.text(4);
    r.payload = q.text_view(5);
    each(r);
  }
}

// The lines of a text, without their line ends.
template <typename Each>
void for_each_line(std::string_view text, Each&& each) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    each(line);
    at = end + 1;
  }
}

}  // namespace tlscope::model::analysis
