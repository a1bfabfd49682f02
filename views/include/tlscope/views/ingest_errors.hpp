// The input problems ingest recorded and skipped (table ingest_errors), a page at a time.
#pragma once

#include <cstdint>
#include <string>

#include "tlscope/views/database.hpp"
#include "tlscope/views/page.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

// One ingest_errors row as facts: where (the file, line and byte offset), what kind (the one list,
// parser/event.hpp TLSCOPE_INGEST_ERROR_KINDS) and what is wrong, without its place.
struct IngestErrorRow {
  int64_t id = 0;
  std::string path;  // "" for errors not tied to a file
  int64_t line = -1, byte_offset = -1;
  std::string kind, reason, excerpt;
  int64_t line_count = 0;  // input lines the error accounts for (0: an event's own problem)
};

// "train.log:12" (the file and line), "train.log" without a line, "(input)" without a file.
std::string ingest_error_place(const IngestErrorRow& e);
// What is wrong, with the lines it covers: "not a glog header (3 lines)".
std::string ingest_error_what(const IngestErrorRow& e);
// The error in words: "train.log:12: not a glog header (3 lines)".
std::string ingest_error_sentence(const IngestErrorRow& e);

Result<Paged<IngestErrorRow>> load_ingest_errors(const Database& db, Page page = {});

}  // namespace tlscope::views
