// `tlscope merge`: tlscope databases written anywhere (per-rank ingests on other machines, at
// other times) combined into one, equal to what one ingest of the same logs in the same order
// writes (docs/schema.md, "Merging databases").
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "tlscope/model/event_writer.hpp"

namespace tlscope::model {

// A merge refused before anything was written (a shard that is not a tlscope database, another
// schema version, the output named as an input, a shard named twice). The message names the file.
class MergeRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MergeResult {
  std::vector<FileOutcome> files;  // in merge order; duplicate_of set for repeats left out
  std::vector<std::string> removed_leftovers;  // temporary files of killed runs into the output
  bool fresh = false;                          // the output was new (built, then renamed)
  uint64_t events = 0, errors = 0, bytes = 0;
  double seconds = 0;
};

// Merges `shards`, in the order given and each shard's files in their order, into `db_path`. A
// file with the same content and rank as a completed file already merged (or already in the
// output) is a repeat and is left out, as ingest leaves out a repeated file. A new output is
// written under a temporary name and renamed into place when complete; an existing one is
// appended to through a write-ahead log, one transaction per shard, so a kill keeps the shards
// committed before it. Throws MergeRefused (checked first, nothing written) or SqliteError.
MergeResult merge_databases(const std::string& db_path, const std::vector<std::string>& shards);

}  // namespace tlscope::model
