// What a database holds, as the report's index, `tlscope summary` and the viewer's header show it:
// input files with their line accounting, ranks (counted one way for every front end), events per
// kind, compile ids, compiles and ingest errors by kind.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tlscope/views/database.hpp"
#include "tlscope/views/result.hpp"

namespace tlscope::views {

struct FileRow {
  int64_t id = 0;
  std::string path;
  int64_t rank = -1;
  int64_t bytes = 0, lines = 0, events = 0, errors = 0;
  bool completed = false, gzip = false;
  // Line accounting: envelope + payload + blank + error lines make up `lines`.
  int64_t envelope_lines = 0, payload_lines = 0, blank_lines = 0, error_lines = 0;
};

struct KindCount {
  std::string kind;
  int64_t count = 0;
};

struct RankRow {
  int64_t rank = -1;  // -1: files without a rank
  int64_t files = 0, events = 0;
};

struct Summary {
  std::vector<FileRow> files;
  std::vector<RankRow> ranks;  // by rank, files without a rank first
  int64_t rank_count = 0;      // distinct ranks of the input files (files without one not counted)
  std::vector<KindCount> kinds;  // events per kind, most frequent first
  int64_t events = 0;
  std::vector<std::string> compile_ids;       // distinct, in log order, the first kMaxCompileIds
  int64_t compile_id_count = 0;               // all distinct compile ids
  int64_t compiles = 0, failed_compiles = 0;  // rows of the analysis compiles table
  std::vector<KindCount> error_kinds;         // ingest errors per kind, by kind
  int64_t errors = 0;                         // rows in ingest_errors
};

inline constexpr size_t kMaxCompileIds = 40;

Result<Summary> load_summary(const Database& db);

}  // namespace tlscope::views
