// `tlscope query DB "SQL" [--csv]`: run SQL against a tlscope database, print an aligned table
// or CSV.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "terminal_text.hpp"
#include "tlscope/model/sqlite.hpp"

namespace tlscope::cli {
namespace {

struct QueryArgs {
  std::string db;
  std::string sql;
  bool csv = false;
};

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

// Display width in code points, so UTF-8 text lines up.
size_t width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void print_table(const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> w(header.size());
  for (size_t c = 0; c < header.size(); ++c) w[c] = width(header[c]);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], width(r[c]));
  auto line = [&](const std::vector<std::string>& r) {
    std::string out;
    for (size_t c = 0; c < r.size(); ++c) {
      if (c) out += "  ";
      out += r[c];
      if (c + 1 < r.size()) out.append(w[c] - width(r[c]), ' ');
    }
    std::printf("%s\n", out.c_str());
  };
  line(header);
  std::vector<std::string> rule;
  for (size_t c = 0; c < w.size(); ++c) rule.push_back(std::string(w[c], '-'));
  line(rule);
  for (const auto& r : rows) line(r);
}

// What the authorizer refused first, for the error message.
struct Refusal {
  std::string what;
};

bool is_describing_pragma(const char* name) {
  static constexpr std::string_view kDescribing[] = {
      "table_info", "table_xinfo",      "table_list",        "index_info",      "index_xinfo",
      "index_list", "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check"};
  std::string_view n = name ? name : "";
  for (std::string_view d : kDescribing)
    if (n.size() == d.size() && std::equal(n.begin(), n.end(), d.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == b;
        }))
      return true;
  return false;
}

// `tlscope query` reads and never writes: besides the read-only open, this authorizer admits only
// reading statements. A read-only connection alone still runs VACUUM INTO (which writes a new
// file anywhere), ATTACH and pragmas that change the connection.
int authorize_read(void* user, int action, const char* arg1, const char* arg2, const char*,
                   const char*) {
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      // Without a value a pragma reports (user_version, page_count); with one it sets
      // something, except for these, whose argument names what to describe or check.
      if (arg2 == nullptr || is_describing_pragma(arg1)) return SQLITE_OK;
      break;
    default:
      break;
  }
  auto* refusal = static_cast<Refusal*>(user);
  if (refusal->what.empty()) {
    refusal->what = action == SQLITE_ATTACH   ? "ATTACH"
                    : action == SQLITE_DETACH ? "DETACH"
                    : action == SQLITE_PRAGMA
                        ? std::string("PRAGMA ") + (arg1 ? arg1 : "") + " = ..."
                        : "a statement that writes";
  }
  return SQLITE_DENY;
}

// Prepares one statement of the query text, refusing anything but a read.
sqlite3_stmt* prepare_read_only(sqlite3* db, const char*& sql, Refusal& refusal) {
  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  refusal.what.clear();
  int rc = sqlite3_prepare_v2(db, sql, -1, &raw, &tail);
  if (rc != SQLITE_OK) {
    if (!refusal.what.empty())
      throw model::SqliteError("tlscope query is read-only: " + refusal.what + " is refused");
    throw model::SqliteError(sqlite3_errmsg(db));
  }
  sql = tail;
  // VACUUM (INTO) asks the authorizer nothing; SQLite still knows it is no read (so do
  // journal_mode and wal_checkpoint, even without a value).
  if (raw && !sqlite3_stmt_readonly(raw)) {
    sqlite3_finalize(raw);
    throw model::SqliteError(
        "tlscope query is read-only: a statement that may write (VACUUM, or a pragma that "
        "changes the database) is refused");
  }
  return raw;
}

int run_query(const QueryArgs& args) {
  try {
    model::Connection db(args.db, model::OpenMode::kReadOnly);
    Refusal refusal;
    sqlite3_set_authorizer(db.handle(), authorize_read, &refusal);
    // Every statement runs in order; the rows shown are those of the last statement with columns.
    const char* sql = args.sql.c_str();
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    const bool to_terminal = isatty(STDOUT_FILENO);
    while (*sql) {
      sqlite3_stmt* raw = prepare_read_only(db.handle(), sql, refusal);
      if (!raw) continue;  // whitespace or a comment
      std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt(raw, sqlite3_finalize);
      int cols = sqlite3_column_count(raw);
      if (cols > 0) {
        header.clear();
        rows.clear();
        for (int c = 0; c < cols; ++c) header.push_back(terminal_safe(sqlite3_column_name(raw, c)));
      }
      int rc;
      while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
        auto& row = rows.emplace_back();
        for (int c = 0; c < cols; ++c) {
          auto* t = reinterpret_cast<const char*>(sqlite3_column_text(raw, c));
          std::string_view value(t ? t : "", t ? sqlite3_column_bytes(raw, c) : 0);
          // CSV keeps the data as it is unless it is going to a terminal.
          row.push_back(args.csv && !to_terminal ? std::string(value) : terminal_safe(value));
        }
      }
      if (rc != SQLITE_DONE) throw model::SqliteError(sqlite3_errmsg(db.handle()));
    }
    if (args.csv) {
      auto line = [](const std::vector<std::string>& r) {
        std::string out;
        for (size_t c = 0; c < r.size(); ++c) out += (c ? "," : "") + csv_field(r[c]);
        std::printf("%s\n", out.c_str());
      };
      if (!header.empty()) line(header);
      for (const auto& r : rows) line(r);
    } else if (!header.empty()) {
      print_table(header, rows);
    }
    return kOk;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tlscope query: %s: %s\n", terminal_safe(args.db).c_str(),
                 terminal_safe(e.what()).c_str());
    return kUsageOrIo;
  }
}

CommandRegistration query_registration{
    12, [](CLI::App& app, int& exit_code) {
      auto args = std::make_shared<QueryArgs>();
      CLI::App* cmd = app.add_subcommand("query", "Run SQL on a tlscope database (read-only)");
      cmd->add_option("db", args->db, "Database written by tlscope ingest")->required();
      cmd->add_option("sql", args->sql, "SQL text (see docs/schema.md)")->required();
      cmd->add_flag("--csv", args->csv, "Print CSV instead of an aligned table");
      cmd->callback([args, &exit_code] { exit_code = run_query(*args); });
    }};

}  // namespace
}  // namespace tlscope::cli
