// Removal of incomplete files' rows (see incomplete_files.hpp).
#include "incomplete_files.hpp"

#include "tlscope/model/schema.hpp"

namespace tlscope::model {
namespace {

void run_with_file(Connection& db, const std::string& sql, int64_t file_id) {
  Statement s = db.prepare(sql);
  s.bind(1, file_id);
  s.run();
}

}  // namespace

void remove_file_rows(Connection& db, int64_t file_id) {
  // Rows that reach the file through its events go first, while the events are still there.
  run_with_file(db,
                "DELETE FROM event_stacks WHERE event_id IN (SELECT id FROM events WHERE "
                "file_id = ?1)",
                file_id);
  // Payloads are stored once per content across files: only those no other file refers to go.
  run_with_file(
      db,
      "DELETE FROM payloads WHERE id IN (SELECT payload_id FROM events WHERE file_id = ?1) "
      "AND id NOT IN (SELECT payload_id FROM events WHERE file_id <> ?1 AND payload_id IS "
      "NOT NULL)",
      file_id);
  for (std::string_view table : kPerEventTables) {
    run_with_file(db, "DELETE FROM " + std::string(table) + " WHERE file_id = ?1", file_id);
  }
  for (const char* table : {"chromium_event_rows", "strings", "ingest_errors", "events"}) {
    run_with_file(db, std::string("DELETE FROM ") + table + " WHERE file_id = ?1", file_id);
  }
  // A stack is stored once for every event that carries it, whichever file: it goes when the
  // last link to it has gone.
  db.exec("DELETE FROM stacks WHERE stack_id NOT IN (SELECT stack_id FROM event_stacks)");
  run_with_file(db, "DELETE FROM files WHERE id = ?1", file_id);
}

std::vector<std::string> remove_incomplete_files(Connection& db,
                                                 const std::vector<std::string>& paths) {
  std::vector<std::string> removed;
  Statement find = db.prepare("SELECT id FROM files WHERE path = ? AND completed = 0 ORDER BY id");
  std::vector<std::pair<std::string, std::vector<int64_t>>> found;
  for (const std::string& path : paths) {
    if (path == "-") continue;
    bool seen = false;
    for (const auto& f : found) seen = seen || f.first == path;
    if (seen) continue;  // the same path given twice
    find.bind_static(1, path);
    std::vector<int64_t> ids;
    while (find.step()) ids.push_back(find.int64(0));
    find.reset();
    if (!ids.empty()) found.emplace_back(path, std::move(ids));
  }
  if (found.empty()) return removed;
  db.exec("BEGIN IMMEDIATE");
  try {
    for (const auto& [path, ids] : found) {
      for (int64_t id : ids) remove_file_rows(db, id);
      removed.push_back(path);
    }
    db.exec("COMMIT");
  } catch (...) {
    try {
      db.exec("ROLLBACK");
    } catch (const SqliteError&) {
    }
    throw;
  }
  return removed;
}

}  // namespace tlscope::model
