// The input problems ingest recorded and skipped (table ingest_errors), a page at a time.
#pragma once

#include <cstdint>
#include <string>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct IngestErrorRow {
  int64_t id = 0;
  std::string path;  // "" for errors not tied to a file
  int64_t line = -1, byte_offset = -1;
  std::string kind, reason, excerpt;
};

Result<Paged<IngestErrorRow>> load_ingest_errors(const Database& db, Page page = {});

}  // namespace tlscope::views
