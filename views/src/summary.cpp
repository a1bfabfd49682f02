// The summary counts, each computed once here for every front end.
#include "tlscope/views/summary.hpp"

#include "read_rows.hpp"

namespace tlscope::views {

Result<Summary> load_summary(const Database& db) {
  Result<Summary> out;
  Summary& s = out.value;
  if (db.has_table("files")) {
    read_rows(db,
              "SELECT id, path, rank, bytes, lines, events, errors, completed, gzip, "
              "envelope_lines, payload_lines, blank_lines, error_lines FROM files ORDER BY id",
              out, [&](const Statement& st) {
                FileRow f;
                f.id = st.int64(0);
                f.path = st.text(1);
                f.rank = st.int64_or(2, -1);
                f.bytes = st.int64(3);
                f.lines = st.int64(4);
                f.events = st.int64(5);
                f.errors = st.int64(6);
                f.completed = st.int64(7) != 0;
                f.gzip = st.int64(8) != 0;
                f.envelope_lines = st.int64(9);
                f.payload_lines = st.int64(10);
                f.blank_lines = st.int64(11);
                f.error_lines = st.int64(12);
                s.files.push_back(std::move(f));
              });
    // files.events is each file's count of events rows, kept by the writer: no scan of events.
    read_rows(db, "SELECT rank, count(*), sum(events) FROM files GROUP BY rank ORDER BY rank", out,
              [&](const Statement& st) {
                s.ranks.push_back({st.int64_or(0, -1), st.int64(1), st.int64(2)});
                s.rank_count += !st.is_null(0);
              });
  }
  if (db.has_table("events")) {
    read_rows(db, "SELECT kind, count(*) AS n FROM events GROUP BY kind ORDER BY n DESC, kind", out,
              [&](const Statement& st) {
                KindCount k{st.text(0), st.int64(1)};
                s.events += k.count;
                s.kinds.push_back(std::move(k));
              });
    read_rows(db,
              "SELECT compile_id FROM events WHERE compile_id IS NOT NULL GROUP BY compile_id "
              "ORDER BY min(id)",
              out, [&](const Statement& st) {
                if (s.compile_ids.size() < kMaxCompileIds) s.compile_ids.push_back(st.text(0));
                ++s.compile_id_count;
              });
  }
  if (db.has_table("compiles")) {
    read_rows(db, "SELECT count(*), count(CASE WHEN fail_type <> '' THEN 1 END) FROM compiles", out,
              [&](const Statement& st) {
                s.compiles = st.int64(0);
                s.failed_compiles = st.int64(1);
              });
  }
  if (db.has_table("ingest_errors")) {
    read_rows(db, "SELECT kind, count(*) FROM ingest_errors GROUP BY kind ORDER BY kind", out,
              [&](const Statement& st) {
                KindCount k{st.text(0), st.int64(1)};
                s.errors += k.count;
                s.error_kinds.push_back(std::move(k));
              });
  }
  return out;
}

}  // namespace tlscope::views
