// The second connection of a concurrent analysis. Its main database is a private temporary one
// (SQLite keeps it in the page cache and spills to an already-unlinked file when that is full,
// so a kill leaves nothing behind) holding the passes' output tables; the analysed file is
// attached read-only as `ingest`. Unqualified names resolve temp, main, then ingest, so a pass
// reads the ingest tables and writes its own tables exactly as on the analysis connection, and
// the tables of an earlier analysis in the file stay hidden behind the new ones.
//
// Which snapshot the reader sees: the analysis connection holds its write lock (BEGIN IMMEDIATE)
// before this opens, so nobody else commits meanwhile, and
// - in WAL mode the reader is an ordinary one: the analysis's frames stay invisible to it;
// - in a rollback-journal mode (the one command's unpublished file: journal off, exclusive
//   lock) it opens with immutable=1, taking no locks, and reads page 1 and the schema before the
//   analysis writes anything. The analysis then writes only pages the reader never reads (its
//   own tables, freed or new pages, page 1 and the schema, which the reader holds from before);
//   auto-vacuum, which moves pages of any table, is refused.
#include "concurrent_passes.hpp"

#include <chrono>
#include <cstdio>

#include "tlscope/model/sqlite.hpp"
#include "tlscope/model/analysis/analyze.hpp"

namespace tlscope::model::analysis {

namespace {

// SQLite's default 2 MiB for the reader's view of the ingest tables, beside the analysis
// connection's 64 MiB: its passes scan events and payloads once, and a larger cache only held
// RSS (16 MiB took a 1,024-rank job's analysis from 144 to 162 MB peak, over the 150 MB budget).
constexpr const char* kIngestCache = "PRAGMA ingest.cache_size=-2048";

std::string pragma_text(sqlite3* db, const char* pragma) {
  Statement q(db, pragma);
  return q.step() ? q.text(0) : std::string();
}

// A file name as an SQLite URI path: unreserved characters and '/' as they are, the rest
// percent-encoded ('?', '#' and '%' would otherwise end or change the path).
std::string uri_path(const std::string& path) {
  std::string out;
  for (unsigned char c : path) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '/' || c == '.' || c == '-' || c == '_' || c == '~';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

// The URI the reader attaches `db`'s file by, or "" when it cannot read it beside `db`.
std::string reader_uri(sqlite3* db) {
  const char* file = sqlite3_db_filename(db, "main");
  if (file == nullptr || file[0] == '\0') return "";  // in memory, or a temporary file
  std::string uri = "file:" + uri_path(file) + "?mode=ro";
  if (pragma_text(db, "PRAGMA main.journal_mode") == "wal") {
    // An exclusive WAL connection keeps its index in private memory: no reader sees its frames.
    if (pragma_text(db, "PRAGMA main.locking_mode") != "normal") return "";
    return uri;
  }
  if (pragma_text(db, "PRAGMA main.auto_vacuum") != "0") return "";
  return uri + "&immutable=1";
}

}  // namespace

std::string failure_text(sqlite3* db, const std::string& what) {
  switch (sqlite3_errcode(db) & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "the database is being written by another process (a tlscope ingest?); try again "
             "when it has finished";
    case SQLITE_NOTADB:
      return "not a tlscope database (" + std::string(sqlite3_errmsg(db)) + ")";
    case SQLITE_CORRUPT:
      return "the database file is damaged (" + std::string(sqlite3_errmsg(db)) +
             "), most likely by an ingest that was killed while an older tlscope wrote it "
             "without a journal: ingest the logs again into a new database";
    default:
      return what;
  }
}

std::unique_ptr<ConcurrentPasses> ConcurrentPasses::start(sqlite3* db,
                                                          std::vector<ConcurrentPass> passes) {
  sqlite3* reader = nullptr;
  std::unique_ptr<ConnectionGuard> guard;
  try {
    const std::string uri = reader_uri(db);
    if (uri.empty()) return nullptr;
    // The settings that can change what a pass writes follow the analysis connection's: the
    // sorter's memory (cache_size and page size of main) decides where a large ORDER BY spills,
    // and with it the order of rows that tie; its worker threads likewise.
    const std::string settings =
        "PRAGMA page_size=" + pragma_text(db, "PRAGMA main.page_size") +
        "; PRAGMA cache_size=" + pragma_text(db, "PRAGMA main.cache_size") +
        "; PRAGMA temp_store=" + pragma_text(db, "PRAGMA temp_store") +
        "; PRAGMA threads=" + pragma_text(db, "PRAGMA threads") + ";";
    if (sqlite3_open_v2(
            "", &reader,
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
            nullptr) != SQLITE_OK)
      throw SqliteError("cannot open the second connection");
    sqlite3_extended_result_codes(reader, 1);
    const char* file = sqlite3_db_filename(db, "main");
    guard = std::make_unique<ConnectionGuard>(reader, file ? file : "", false);
    sqlite3_busy_timeout(reader, 5000);
    exec(reader, settings);
    {
      Statement attach(reader, "ATTACH ?1 AS ingest");
      attach.bind(1, uri);
      attach.run();
    }
    exec(reader, kIngestCache);
    register_analysis_functions(reader);
    for (const AnalysisTable& table : analysis_tables()) {
      for (const ConcurrentPass& pass : passes)
        if (std::string_view(table.pass) == pass.name) exec(reader, table.ddl);
    }
    // The snapshot: a read transaction on the file from here until the connection closes (it
    // never commits; its temporary tables vanish with it).
    exec(reader, "BEGIN; SELECT count(*) FROM ingest.sqlite_master;");
  } catch (const SqliteError&) {
    guard.reset();
    sqlite3_close_v2(reader);
    return nullptr;
  }
  std::unique_ptr<ConcurrentPasses> self(
      new ConcurrentPasses(reader, std::move(guard), std::move(passes)));
  self->thread_ = std::thread([p = self.get()] { p->run_passes(); });
  return self;
}

ConcurrentPasses::ConcurrentPasses(sqlite3* reader, std::unique_ptr<ConnectionGuard> guard,
                                   std::vector<ConcurrentPass> passes)
    : reader_(reader), guard_(std::move(guard)), passes_(std::move(passes)) {}

ConcurrentPasses::~ConcurrentPasses() {
  if (thread_.joinable()) {
    sqlite3_interrupt(reader_);
    thread_.join();
  }
  guard_.reset();  // its handlers point into it
  sqlite3_close_v2(reader_);
}

void ConcurrentPasses::run_passes() {
  for (size_t i = 0; i < passes_.size(); ++i) {
    const ConcurrentPass& pass = passes_[i];
    auto t0 = std::chrono::steady_clock::now();
    const std::string what = std::string("analysis pass '") + pass.name + "' failed: ";
    try {
      pass.run(reader_);
    } catch (const SqliteError& e) {
      error_ = failure_text(reader_, what + e.what());
    } catch (const std::exception& e) {
      error_ = what + e.what();
    } catch (...) {
      error_ = what + "unknown error";
    }
    // SQLite rolls a transaction back on some errors (a full disk, no memory); a pass that went
    // on after one would read a later, possibly half-written, state of the file.
    if (error_.empty() && sqlite3_get_autocommit(reader_))
      error_ = what + "its connection's snapshot ended (SQLite rolled its transaction back)";
    if (!error_.empty()) {
      failed_pass_ = static_cast<int>(i);
      return;
    }
    seconds_.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
}

void ConcurrentPasses::wait() {
  if (thread_.joinable()) thread_.join();
}

void ConcurrentPasses::copy_into(sqlite3* db, const std::vector<std::string>& tables) {
  using StatementPtr = std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)>;
  auto prepare = [&](sqlite3* on, const std::string& table, const std::string& sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(on, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      throw SqliteError("copying " + table + ": " + sqlite3_errmsg(on));
    return StatementPtr(stmt, sqlite3_finalize);
  };
  for (const std::string& table : tables) {
    // rowid first: a table without an INTEGER PRIMARY KEY keeps its rowids too. The values go
    // across as they are stored, into the same DDL, so they are stored the same again.
    StatementPtr source =
        prepare(reader_, table, "SELECT rowid, * FROM main.\"" + table + "\" ORDER BY rowid");
    const int columns = sqlite3_column_count(source.get());
    std::string names = "rowid", values = "?1";
    for (int c = 1; c < columns; ++c) {
      names += ", \"" + std::string(sqlite3_column_name(source.get(), c)) + '"';
      values += ", ?" + std::to_string(c + 1);
    }
    StatementPtr insert = prepare(
        db, table, "INSERT INTO main.\"" + table + "\"(" + names + ") VALUES(" + values + ")");
    int rc;
    while ((rc = sqlite3_step(source.get())) == SQLITE_ROW) {
      for (int c = 0; c < columns; ++c)
        sqlite3_bind_value(insert.get(), c + 1, sqlite3_column_value(source.get(), c));
      if (sqlite3_step(insert.get()) != SQLITE_DONE)
        throw SqliteError("copying " + table + ": " + sqlite3_errmsg(db));
      sqlite3_reset(insert.get());
    }
    if (rc != SQLITE_DONE) throw SqliteError("copying " + table + ": " + sqlite3_errmsg(reader_));
  }
}

}  // namespace tlscope::model::analysis
