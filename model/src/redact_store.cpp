// Redacted store copies, bundle file names and counts (see redact_store.hpp).
#include "tlscope/model/redact_store.hpp"

#include <sqlite3.h>

#include <string_view>
#include <unordered_map>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {
namespace {

std::string quote_identifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

bool has_table(Connection& db, const std::string& name) {
  Statement s = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?");
  s.bind_static(1, name);
  return s.step();
}

// The UPDATE's WHERE calls tlscope_redaction_changes(c), which runs the redactor once per cell and
// keeps the text it produced for the cells it changed; SET's tlscope_redacted(c) looks that text
// up. SQLite may run SET right after each WHERE or after the whole scan (two-pass updates), so the
// hand-over is a map, not "the last cell"; changed cells are rare, so it stays small.
struct CellRedaction {
  const TextRedactor* redact = nullptr;
  std::unordered_map<std::string, std::string> changed;  // original text -> redacted text
  uint64_t cells = 0;
};

std::string_view value_text(sqlite3_value* v) {
  const unsigned char* text = sqlite3_value_text(v);
  if (!text) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(v))};
}

void sql_redaction_changes(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* r = static_cast<CellRedaction*>(sqlite3_user_data(ctx));
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) return sqlite3_result_int(ctx, 0);
  std::string original(value_text(argv[0]));
  std::string text = original;
  bool changed = (*r->redact)(text);
  if (changed) {
    ++r->cells;
    r->changed.emplace(std::move(original), std::move(text));
  }
  sqlite3_result_int(ctx, changed ? 1 : 0);
}

void sql_redacted(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* r = static_cast<CellRedaction*>(sqlite3_user_data(ctx));
  auto it = r->changed.find(std::string(value_text(argv[0])));
  if (it == r->changed.end()) return sqlite3_result_value(ctx, argv[0]);
  sqlite3_result_text(ctx, it->second.data(), static_cast<int>(it->second.size()),
                      SQLITE_TRANSIENT);
}

}  // namespace

StoreRedaction redact_store_copy(const std::string& source, const std::string& dest,
                                 const TextRedactor& redact) {
  StoreRedaction result;
  try {
    {
      Connection src(source, OpenMode::kReadOnly);
      if (!has_table(src, "events")) {
        result.error = source + ": not a tlscope database (no events table)";
        return result;
      }
      if (has_table(src, "files")) {
        Statement s = src.prepare("SELECT path FROM files ORDER BY id");
        while (s.step()) result.file_paths.push_back(s.text(0));
      }
      Statement copy = src.prepare("VACUUM INTO ?");
      copy.bind_static(1, dest);
      copy.run();
    }
    Connection db(dest, OpenMode::kReadWrite);
    CellRedaction state;
    state.redact = &redact;
    sqlite3_create_function(db.handle(), "tlscope_redaction_changes", 1, SQLITE_UTF8, &state,
                            sql_redaction_changes, nullptr, nullptr);
    sqlite3_create_function(db.handle(), "tlscope_redacted", 1, SQLITE_UTF8, &state, sql_redacted,
                            nullptr, nullptr);
    std::vector<std::string> tables;
    {
      Statement s = db.prepare(
          "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
          "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name");
      while (s.step()) tables.push_back(s.text(0));
    }
    db.exec("BEGIN");
    for (const std::string& table : tables) {
      std::vector<std::string> columns;
      {
        Statement s = db.prepare("SELECT name FROM pragma_table_info(?)");
        s.bind_static(1, table);
        while (s.step()) columns.push_back(s.text(0));
      }
      for (const std::string& column : columns) {
        std::string c = quote_identifier(column);
        db.exec("UPDATE " + quote_identifier(table) + " SET " + c + " = tlscope_redacted(" + c +
                ") WHERE typeof(" + c + ") = 'text' AND tlscope_redaction_changes(" + c + ")");
        state.changed.clear();
      }
    }
    db.exec("COMMIT");
    db.exec("VACUUM");  // rewrites the file: freed pages holding the old text are gone
    result.cells_changed = state.cells;
    result.ok = true;
  } catch (const std::exception& e) {
    result.error = source + ": " + e.what();
  }
  return result;
}

bool rename_store_files(const std::string& db_path, const std::vector<FileRename>& renames,
                        const std::string& strip_prefix, std::string& error) {
  try {
    Connection db(db_path, OpenMode::kReadWrite);
    db.exec("BEGIN");
    // One UPDATE through a keyed temporary table: an UPDATE per file looked its path up by a scan
    // of `files` (no index on path), quadratic in the file count (rage over 100,000 rank files).
    db.exec(
        "CREATE TEMP TABLE IF NOT EXISTS file_renames(from_path TEXT PRIMARY KEY, to_path TEXT);"
        "DELETE FROM temp.file_renames;");
    Statement add = db.prepare("INSERT OR REPLACE INTO temp.file_renames VALUES(?, ?)");
    for (const FileRename& r : renames) {
      add.bind_static(1, r.from);
      add.bind_static(2, r.to);
      add.run();
    }
    db.exec(
        "UPDATE files SET path = (SELECT to_path FROM temp.file_renames WHERE from_path = "
        "files.path) WHERE path IN (SELECT from_path FROM temp.file_renames);"
        "DROP TABLE temp.file_renames;");
    if (!strip_prefix.empty()) {
      Statement strip = db.prepare("UPDATE ingest_errors SET reason = replace(reason, ?, '')");
      strip.bind_static(1, strip_prefix);
      strip.run();
    }
    db.exec("COMMIT");
    return true;
  } catch (const std::exception& e) {
    error = db_path + ": " + e.what();
    return false;
  }
}

bool count_store(const std::string& db_path, StoreCounts& counts, std::string& error) {
  try {
    Connection db(db_path, OpenMode::kReadOnly);
    counts.events = db.scalar_int("SELECT count(*) FROM events").value_or(0);
    if (has_table(db, "ingest_errors"))
      counts.ingest_errors = db.scalar_int("SELECT count(*) FROM ingest_errors").value_or(0);
    if (has_table(db, "compiles"))
      counts.compiles = db.scalar_int("SELECT count(*) FROM compiles").value_or(-1);
    if (has_table(db, "findings"))
      counts.findings = db.scalar_int("SELECT count(*) FROM findings").value_or(-1);
    return true;
  } catch (const std::exception& e) {
    error = db_path + ": " + e.what();
    return false;
  }
}

}  // namespace tlscope::model
