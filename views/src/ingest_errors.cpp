// The ingest_errors table, joined to the file each error came from, and its rows in words.
#include "tlscope/views/ingest_errors.hpp"

#include "read_rows.hpp"

namespace tlscope::views {

Result<Paged<IngestErrorRow>> load_ingest_errors(const Database& db, Page page) {
  Result<Paged<IngestErrorRow>> out;
  if (!db.has_table("ingest_errors")) return out;
  out.value.total = static_cast<size_t>(db.scalar("SELECT count(*) FROM ingest_errors"));
  if (page.limit == 0) return out;
  constexpr std::string_view kWithFiles =
      "SELECT e.id, coalesce(f.path, ''), e.line, e.byte_offset, coalesce(e.kind, ''), "
      "coalesce(e.reason, ''), coalesce(e.excerpt, ''), coalesce(e.line_count, 0) "
      "FROM ingest_errors e "
      "LEFT JOIN files f ON f.id = e.file_id ORDER BY e.id LIMIT ?1 OFFSET ?2";
  constexpr std::string_view kWithoutFiles =
      "SELECT id, '', line, byte_offset, coalesce(kind, ''), coalesce(reason, ''), "
      "coalesce(excerpt, ''), coalesce(line_count, 0) FROM ingest_errors ORDER BY id "
      "LIMIT ?1 OFFSET ?2";
  std::string_view sql = db.has_table("files") ? kWithFiles : kWithoutFiles;
  read_rows_bound(
      db, sql, out,
      [&](Statement& s) {
        s.bind(1, page.limit == Page::kAll ? int64_t{-1} : static_cast<int64_t>(page.limit));
        s.bind(2, static_cast<int64_t>(page.offset));
      },
      [&](const Statement& s) {
        out.value.rows.push_back({s.int64(0), s.text(1), s.int64_or(2, -1), s.int64_or(3, -1),
                                  s.text(4), s.text(5), s.text(6), s.int64(7)});
      });
  return out;
}

std::string ingest_error_place(const IngestErrorRow& e) {
  std::string where = e.path.empty() ? "(input)" : e.path;
  // Appended piece by piece: ":" + std::string trips GCC 12's -Wrestrict false positive.
  if (e.line >= 0) where.append(":").append(std::to_string(e.line));
  return where;
}

std::string ingest_error_what(const IngestErrorRow& e) {
  if (e.line_count <= 1) return e.reason;
  return e.reason + " (" + std::to_string(e.line_count) + " lines)";
}

std::string ingest_error_sentence(const IngestErrorRow& e) {
  return ingest_error_place(e) + ": " + ingest_error_what(e);
}

}  // namespace tlscope::views
