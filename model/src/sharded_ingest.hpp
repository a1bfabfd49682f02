// The parallel ingest (--jobs N, several files): each file is parsed and written by a worker into
// a scratch database of its own (a shard), N at a time, while the calling thread merges finished
// shards into the output in input order with ShardMerger. One SQLite writer was the limit; now N
// write at once and the output only receives rows already encoded (INSERT ... SELECT).
#pragma once

#include <chrono>
#include <string>

#include "tlscope/model/ingest.hpp"
#include "tlscope/model/sqlite.hpp"
#include "tlscope/parser/reader.hpp"

namespace tlscope::model {

// Writes every source of `plan` into `db` (the schema in place, no transaction open), its rows
// equal to those of one writer taking the files in input order. Scratch shards are created beside
// `db_path` (named and locked like a temporary database, so a killed run's are removed by the
// next ingest). Each merged file is committed on its own. `bytes_total` feeds the progress.
void write_sources_sharded(Connection& db, const std::string& db_path,
                           const parser::InputPlan& plan, const IngestOptions& options,
                           uint64_t bytes_total, IngestResult& result,
                           std::chrono::steady_clock::time_point start);

}  // namespace tlscope::model
