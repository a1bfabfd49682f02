// Building or redacting the bundle's database (see rage_database.hpp).
#include "rage_database.hpp"

#include <sqlite3.h>

#include "tlscope/model/analysis/analyze.hpp"
#include "tlscope/model/ingest.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::exporters::rage {
namespace {

std::string quote_identifier(const std::string& name) {
  std::string out = "\"";
  for (char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

struct SqlRedaction {
  Redactor* redactor;
  RedactionCounts* counts;
  uint64_t cells = 0;
};

void sql_needs_redaction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* r = static_cast<SqlRedaction*>(sqlite3_user_data(ctx));
  const unsigned char* text = sqlite3_value_text(argv[0]);
  if (!text) return sqlite3_result_int(ctx, 0);
  std::string copy(reinterpret_cast<const char*>(text), sqlite3_value_bytes(argv[0]));
  RedactionCounts scratch;
  sqlite3_result_int(ctx, r->redactor->redact_text(copy, scratch) ? 1 : 0);
}

void sql_redact(sqlite3_context* ctx, int, sqlite3_value** argv) {
  auto* r = static_cast<SqlRedaction*>(sqlite3_user_data(ctx));
  const unsigned char* text = sqlite3_value_text(argv[0]);
  if (!text) return sqlite3_result_null(ctx);
  std::string value(reinterpret_cast<const char*>(text), sqlite3_value_bytes(argv[0]));
  if (r->redactor->redact_text(value, *r->counts)) ++r->cells;
  sqlite3_result_text(ctx, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

bool has_table(model::Connection& db, const std::string& name) {
  model::Statement s = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?");
  s.bind_text(1, name);
  return s.step();
}

}  // namespace

bool build_database(const std::string& db_path, const std::vector<std::string>& logs,
                    const std::vector<std::string>& bundle_names, unsigned jobs,
                    const std::function<void(uint64_t, uint64_t)>& progress, std::string& error) {
  try {
    model::IngestOptions options;
    options.jobs = jobs;
    if (progress)
      options.progress = [&](const model::IngestProgress& p) {
        progress(p.bytes_done, p.bytes_total);
      };
    model::IngestResult ingested = model::ingest(db_path, logs, options);
    if (!ingested.problems.empty()) {
      error = ingested.problems.front();
      return false;
    }
    model::Connection db(db_path, model::OpenMode::kReadWrite);
    // The staging paths mean nothing to the reader of the bundle: name the files as they are in it.
    model::Statement rename = db.prepare("UPDATE files SET path = ? WHERE path = ?");
    for (size_t i = 0; i < logs.size(); ++i) {
      rename.bind_text(1, bundle_names[i]);
      rename.bind_text(2, logs[i]);
      rename.run();
    }
    // Error reasons start with the path the parser was given; strip the staging folder from them.
    if (!logs.empty() && logs[0].size() > bundle_names[0].size()) {
      std::string staging = logs[0].substr(0, logs[0].size() - bundle_names[0].size());
      model::Statement strip =
          db.prepare("UPDATE ingest_errors SET reason = replace(reason, ?, '')");
      strip.bind_text(1, staging);
      strip.run();
    }
    auto report = model::analysis::analyze(db.handle());
    if (!report.ok) {
      error = db_path + ": analysis failed: " + report.error;
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    error = db_path + ": " + e.what();
    return false;
  }
}

bool redact_database_copy(const std::string& source, const std::string& dest, Redactor& redactor,
                          BundleSummary& summary, std::vector<std::string>& log_paths,
                          std::string& error) {
  try {
    {
      model::Connection src(source, model::OpenMode::kReadOnly);
      if (!has_table(src, "events")) {
        error = source + ": not a tlscope database (no events table)";
        return false;
      }
      if (has_table(src, "files")) {
        model::Statement s = src.prepare("SELECT path FROM files ORDER BY id");
        while (s.step()) log_paths.push_back(s.column_text(0));
      }
      model::Statement copy = src.prepare("VACUUM INTO ?");
      copy.bind_text(1, dest);
      copy.run();
    }
    model::Connection db(dest, model::OpenMode::kReadWrite);
    SqlRedaction state{&redactor, &summary.db_counts};
    sqlite3_create_function(db.handle(), "tlscope_needs_redaction", 1, SQLITE_UTF8, &state,
                            sql_needs_redaction, nullptr, nullptr);
    sqlite3_create_function(db.handle(), "tlscope_redact", 1, SQLITE_UTF8, &state, sql_redact,
                            nullptr, nullptr);
    std::vector<std::string> tables;
    {
      model::Statement s = db.prepare(
          "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
          "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name");
      while (s.step()) tables.push_back(s.column_text(0));
    }
    db.exec("BEGIN");
    for (const std::string& table : tables) {
      std::vector<std::string> columns;
      {
        model::Statement s = db.prepare("SELECT name FROM pragma_table_info(?)");
        s.bind_text(1, table);
        while (s.step()) columns.push_back(s.column_text(0));
      }
      for (const std::string& column : columns) {
        std::string c = quote_identifier(column);
        db.exec("UPDATE " + quote_identifier(table) + " SET " + c + " = tlscope_redact(" + c +
                ") WHERE typeof(" + c + ") = 'text' AND tlscope_needs_redaction(" + c + ")");
      }
    }
    db.exec("COMMIT");
    db.exec("VACUUM");  // rewrites the file: freed pages holding the old text are gone
    summary.db_cells_changed = state.cells;
    return true;
  } catch (const std::exception& e) {
    error = source + ": " + e.what();
    return false;
  }
}

void count_database(const std::string& db_path, BundleSummary& summary) {
  try {
    model::Connection db(db_path, model::OpenMode::kReadOnly);
    summary.events = db.scalar_int("SELECT count(*) FROM events").value_or(0);
    if (has_table(db, "ingest_errors"))
      summary.ingest_errors = db.scalar_int("SELECT count(*) FROM ingest_errors").value_or(0);
    if (has_table(db, "compiles"))
      summary.compiles = db.scalar_int("SELECT count(*) FROM compiles").value_or(-1);
    if (has_table(db, "findings"))
      summary.findings = db.scalar_int("SELECT count(*) FROM findings").value_or(-1);
  } catch (const std::exception&) {
    // Counts are informative; the database itself was checked when it was built.
  }
}

}  // namespace tlscope::exporters::rage
