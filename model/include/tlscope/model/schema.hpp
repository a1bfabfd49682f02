// The tlscope database schema (docs/schema.md is its documentation): table creation, the indexes
// built after a bulk load, and the bulk-load pragmas.
#pragma once

#include <string_view>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {

inline constexpr std::string_view kSchemaVersion = "2";  // 2: chromium args read from payloads, stacks stored once

// Creates every ingest table (IF NOT EXISTS) and fills `meta`.
void create_schema(Connection& db);

// Creates the secondary indexes (IF NOT EXISTS). Run after the load: one sort per index is far
// cheaper than keeping the B-trees up to date row by row.
void create_indexes(Connection& db);

// journal off, synchronous off, a large page cache: the database is disposable, it can always be
// rebuilt from the logs, so durability is traded for load speed.
void apply_bulk_load_pragmas(Connection& db);

}  // namespace tlscope::model
