// Reads the records of kinds tlscope does not know (see unknown_records.hpp).
#include "tlscope/views/unknown_records.hpp"

#include "read_rows.hpp"
#include "tlscope/model/record_kinds.hpp"

namespace tlscope::views {

std::vector<KindCount> unknown_kinds(const std::vector<KindCount>& kinds) {
  std::vector<KindCount> out;
  for (const KindCount& k : kinds)
    if (!model::is_known_record_kind(k.kind)) out.push_back(k);
  return out;
}

Result<Paged<UnknownRecord>> load_unknown_records(const Database& db, Page page) {
  Result<Paged<UnknownRecord>> out;
  if (!db.has_table("events")) return out;
  // The kinds come from the events_kind index (one entry per distinct kind); each unknown one's
  // rows are then read by kind, so the scan never touches the known majority.
  std::vector<std::string> kinds;
  read_rows(db, "SELECT DISTINCT kind FROM events ORDER BY kind", out, [&](const Statement& s) {
    std::string k = s.text(0);
    if (!model::is_known_record_kind(k)) kinds.push_back(std::move(k));
  });
  if (kinds.empty()) return out;
  std::string in = "(";
  for (size_t i = 0; i < kinds.size(); ++i) in += i ? ",?" : "?";
  in += ")";
  auto bind_kinds = [&](Statement& s) {
    for (size_t i = 0; i < kinds.size(); ++i) s.bind(static_cast<int>(i + 1), kinds[i]);
  };
  read_rows_bound(db, "SELECT count(*) FROM events WHERE kind IN " + in, out, bind_kinds,
                  [&](const Statement& s) { out.value.total = static_cast<size_t>(s.int64(0)); });
  const std::string clip = std::to_string(kUnknownRecordBytes);
  read_rows_bound(
      db,
      "SELECT e.id, f.path, e.line, e.rank, e.kind, e.compile_id, substr(e.metadata, 1, " + clip +
          "), substr(p.text, 1, " + clip +
          "), p.size FROM events e JOIN files f ON f.id = e.file_id LEFT JOIN payloads p ON p.id "
          "= e.payload_id WHERE e.kind IN " +
          in + " ORDER BY e.id LIMIT " +
          std::to_string(page.limit == Page::kAll ? -1 : static_cast<int64_t>(page.limit)) +
          " OFFSET " + std::to_string(page.offset),
      out, bind_kinds, [&](const Statement& s) {
        UnknownRecord& r = out.value.rows.emplace_back();
        r.event_id = s.int64(0);
        r.path = s.text(1);
        r.line = s.int64(2);
        r.rank = s.int64_or(3, -1);
        r.kind = s.text(4);
        r.compile_id = s.text(5);
        r.metadata = s.text(6);
        r.payload = s.text(7);
        r.payload_size = s.int64_or(8, 0);
      });
  return out;
}

}  // namespace tlscope::views
