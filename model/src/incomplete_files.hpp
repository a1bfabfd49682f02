// Taking the rows of a file whose ingest did not complete out of the database again, so that its
// re-ingest replaces them instead of adding a second, partial copy.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/model/sqlite.hpp"

namespace tlscope::model {

// Deletes file `file_id` and every row derived from it: its events, their stacks links, the typed
// and chromium rows, interned strings, ingest errors, and the payloads no other file refers to.
// The caller owns the transaction.
void remove_file_rows(Connection& db, int64_t file_id);

// For each path (stdin "-" excepted: a second stream is never the same file), the incomplete
// files stored under exactly that path are removed with remove_file_rows, all in one transaction.
// Returns the paths whose rows were removed.
std::vector<std::string> remove_incomplete_files(Connection& db,
                                                 const std::vector<std::string>& paths);

}  // namespace tlscope::model
