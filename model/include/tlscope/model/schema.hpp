// The tlscope database schema (docs/schema.md is its documentation): table creation, the indexes
// built after a bulk load, and the bulk-load pragmas.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {

// 2: chromium args read from payloads, stacks stored once; 3: compilation_metrics a view over
// compilation_metrics_rows, its json read from events.metadata.
inline constexpr std::string_view kSchemaVersion = "4";

// One of tlscope's views (docs/schema.md): its name and SELECT, and whether the analysis makes it
// (it reads analysis tables) rather than the ingest.
struct OwnView {
  std::string_view name;
  std::string_view select;
  bool with_analysis;
};
std::span<const OwnView> own_views();
// CREATE VIEW IF NOT EXISTS of `view` in the file (main), or as a TEMP view of one connection.
std::string own_view_ddl(const OwnView& view, bool temp);

// Creates every ingest table and view (IF NOT EXISTS) and fills `meta`; refuses a database of
// another schema version as refuse_other_schema_version does.
void create_schema(Connection& db);

// Throws SqliteError naming both versions when `db` is a tlscope database of another schema
// version. Only reads: an append checks this before its pragmas (WAL) touch the file, so a
// refused database keeps its bytes.
void refuse_other_schema_version(Connection& db);

// Creates the secondary indexes (IF NOT EXISTS). Run after the load: one sort per index is far
// cheaper than keeping the B-trees up to date row by row.
void create_indexes(Connection& db);

// The empty ingest database as a file image: what apply_bulk_load_pragmas and create_schema make
// of a new file, run at build time (model/tools/make_schema_template.cpp); the indexes come after
// the load, as create_indexes says.
// A fresh ingest writes it into its new file instead of running the ~25 CREATE statements
// (~4 M instructions, a fifth of simple.log's ingest). A few hundred KiB, mostly zeros,
// rebuilt on each call from the embedded non-zero runs.
std::string schema_template();

// The typed tables that hold one row per event of a kind (event_id, file_id, ...): what goes when
// a file's rows are taken out again.
inline constexpr std::array<std::string_view, 6> kPerEventTables = {
    "compilation_metrics_rows", "describe_tensor", "describe_storage",
    "describe_source",          "artifacts",       "links"};

// journal off, synchronous off, a large page cache: only for a database nobody can see yet (a new
// one, written under a temporary name and renamed into place when complete; see ingest.hpp), where
// a kill loses nothing but the run itself.
void apply_bulk_load_pragmas(Connection& db);

// For writing a database that already holds data (an append, the analyses): a write-ahead log, so
// a kill at any point rolls back to the last commit, and readers (summary, report) keep reading
// the committed state while it is written. A busy timeout rides out a short reader.
void apply_update_pragmas(Connection& db);

// Back to a rollback journal once the writing is done (the WAL is checkpointed into the file and
// removed), so the database is again one file that read-only users and copies see whole. Best
// effort: while another connection reads it, it stays in WAL mode, which is just as safe.
void end_update(Connection& db) noexcept;

}  // namespace tlscope::model
